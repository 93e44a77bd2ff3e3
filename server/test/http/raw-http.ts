import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** The server closed the connection (within the helper's patience). */
  closed: boolean;
}

/**
 * Writes `chunks` on a fresh loopback connection (`pauseMs` apart) and reads until the server
 * closes it: for requests no HTTP client would send (bad framing, slow bodies, silence).
 */
export function rawRequest(
  port: number,
  chunks: Array<string | Buffer>,
  options: { pauseMs?: number; patienceMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(received).toString('utf8')), closed });
    };
    socket.on('data', (data) => received.push(data));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the client is still writing: what it answered still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    timer = setTimeout(() => finish(false), options.patienceMs ?? 10_000);
    let index = 0;
    const writeNext = () => {
      if (index >= chunks.length || socket.destroyed) return;
      socket.write(chunks[index++]!);
      setTimeout(writeNext, options.pauseMs ?? 0);
    };
    socket.on('connect', writeNext);
  });
}

function parse(text: string): Omit<RawResponse, 'closed'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: null };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  let body: any = rest;
  try {
    body = JSON.parse(rest);
  } catch {}
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}
