// Shared pieces of bench/live: the platform child process, a lean participant client speaking the
// realtime protocol (docs/realtime.md), and percentiles.
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

export interface ServerInfo {
  base: string;
  apiKey: string;
  offlineScenarioId: string;
  agentScenarioId: string | null;
}

/** Starts a bench server script in its own process with --expose-gc; resolves with its JSON line. */
export async function startServer<T = ServerInfo>(
  script: string,
  env: Record<string, string>,
): Promise<{ info: T; child: ChildProcess }> {
  // BENCH_NODE_ARGS: extra flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=prof`.
  const extra = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, ['--expose-gc', ...extra, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
  });
  return { info, child };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function createMeeting(
  info: ServerInfo,
  scenarioId: string,
): Promise<{ id: string; token: string }> {
  const response = await fetch(`${info.base}/v1/meetings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scenario_id: scenarioId, person_name: 'Bench Participant' }),
  });
  const body = (await response.json()) as { data: { id: string; room_token: string } };
  if (response.status !== 201) throw new Error(`create meeting: ${response.status} ${JSON.stringify(body)}`);
  return { id: body.data.id, token: body.data.room_token };
}

export type Frame = { type: string; [field: string]: any };

/** One participant: `until(type)` resolves with the next frame of that type not yet consumed. */
export class BenchParticipant {
  readonly socket: WebSocket;
  readonly #frames: Array<{ frame: Frame; at: number }> = [];
  #cursor = 0;
  #waiting: { type: string; resolve: (entry: { frame: Frame; at: number }) => void } | null = null;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw) => {
      const entry = { frame: JSON.parse(raw.toString()) as Frame, at: performance.now() };
      this.#frames.push(entry);
      if (this.#waiting) this.#scan();
    });
  }

  static connect(base: string, meetingId: string, token: string): Promise<BenchParticipant> {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/rooms/${meetingId}/live?t=${token}`);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new BenchParticipant(socket)));
      socket.once('error', reject);
    });
  }

  send(frame: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(frame));
  }

  #scan(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    while (this.#cursor < this.#frames.length) {
      const entry = this.#frames[this.#cursor++]!;
      if (entry.frame.type === waiting.type) {
        this.#waiting = null;
        // Frames are only kept until consumed: a long session does not grow this client.
        this.#frames.splice(0, this.#cursor);
        this.#cursor = 0;
        waiting.resolve(entry);
        return;
      }
    }
  }

  until(type: string, timeoutMs = 30_000): Promise<{ frame: Frame; at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
      this.#waiting = {
        type,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      };
      this.#scan();
    });
  }

  close(): void {
    this.socket.close();
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** Rejects when `ms` passes: every benchmark is bounded in time. */
export function deadline(ms: number, what: string): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
