import { type AddressInfo, createServer, type Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy to a dependency (Redis, PostgreSQL) whose connection tests and benchmarks
 * can cut: `cut()` drops every open connection and refuses new ones (a dependency that went away),
 * `stall()` stops forwarding without closing anything (a network partition: bytes wait in the
 * buffers), `restore()` forwards again. The listening port stays the same throughout, so clients
 * reconnect to it on their own. `retarget()` sends new connections elsewhere (a load balancer
 * whose instance went away), leaving open ones as they are.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private isCut = false;
  private isStalled = false;
  private target!: { host: string; port: number };

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy!: TcpProxy;
    const server = createServer((client) => proxy.accept(client, proxy.target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    proxy.target = target;
    return proxy;
  }

  /** New connections go to `target` from now on. */
  retarget(target: { host: string; port: number }): void {
    this.target = target;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.isCut) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.connect(target.port, target.host);
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.isStalled) for (const socket of [client, upstream]) socket.pause();
  }

  cut(): void {
    this.isCut = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  stall(): void {
    this.isStalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  restore(): void {
    this.isCut = false;
    this.isStalled = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
