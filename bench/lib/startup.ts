// Start-up figures shared by bench/startup and bench/api-auth: the time from spawn to the first
// 200 of /healthz for `serve`, the bundle `npm start` runs (dist/, scripts/build.mjs) against the
// same code through tsx (the baseline: what `npm start` ran before), cold and warm.
//   cold: a fresh data directory / an empty database (PGlite creates its files, migrations run),
//         and for tsx an empty transform cache (its own TMPDIR);
//   warm: a restart on the same data (the median of BENCH_RUNS starts).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../server/src/core/testing/free-port.ts';
import { benchDatabaseUrl, ratio } from './postgres.ts';

export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export const COMMANDS = {
  compiled: [process.execPath, 'dist/server/main.js', 'serve'],
  tsx: [process.execPath, '--import', 'tsx', 'server/src/main.ts', 'serve'],
  'npm start': ['npm', 'start', '--silent'],
  'npm run dev (tsx)': ['npm', 'run', 'dev', '--silent'],
  'compiled --role api': [process.execPath, 'dist/server/main.js', 'serve', '--role', 'api'],
} as const;
export type Command = keyof typeof COMMANDS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One start: spawn → /healthz 200 (ms), then SIGTERM → exit (ms). */
async function startOnce(command: Command, env: Record<string, string>) {
  const port = await freePort();
  const [file, ...args] = COMMANDS[command];
  const started = performance.now();
  const child: ChildProcess = spawn(file, args, {
    env: {
      ...process.env,
      PORT: String(port),
      MAILBOX_PORT: String(await freePort()),
      SMTP_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 180_000) throw new Error(`${command}: no /healthz in 180 s`);
      await sleep(25);
    }
    const healthy = performance.now() - started;
    const stopping = performance.now();
    // npm runs the server as its child: the signal goes to the whole process group.
    process.kill(-child.pid!, 'SIGTERM');
    const code = await exited;
    return { healthy, shutdown: performance.now() - stopping, code };
  } catch (error) {
    process.kill(-child.pid!, 'SIGKILL');
    throw error;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export type Store = 'pglite' | 'postgres';

export interface Figures {
  cold?: number;
  warm: number;
  shutdown: number;
}

/** A cold start on fresh data (when asked), then RUNS warm restarts on the same data. */
export async function measure(command: Command, store: Store, cold: boolean): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const database = store === 'postgres' ? benchDatabaseUrl(`startup_${command.replace(/\W+/g, '_')}`) : null;
  // The same key for every start, as a deployment has (PostgreSQL keeps its sealed secrets).
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    ENCRYPTION_KEY: '11'.repeat(32),
  };
  try {
    const figures: Partial<Figures> = {};
    if (cold) {
      // tsx caches its transforms under the temporary directory: a fresh one is a cold tsx.
      const tmp = mkdtempSync(join(tmpdir(), 'bench-startup-tmp-'));
      figures.cold = (await startOnce(command, { ...env, TMPDIR: tmp })).healthy;
      rmSync(tmp, { recursive: true, force: true });
    } else {
      await startOnce(command, env); // creates the data: the runs below are restarts
    }
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await startOnce(command, env));
    // npm itself dies by the signal (code null); the server's own exit code is checked directly.
    const failed = command.startsWith('npm') ? undefined : runs.find((run) => run.code !== 0);
    if (failed) throw new Error(`${command} exited ${failed.code} on SIGTERM`);
    return {
      ...figures,
      warm: median(runs.map((run) => run.healthy)),
      shutdown: median(runs.map((run) => run.shutdown)),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  }
}

/** Builds the bundle when it is stale, as `npm start` does, so no start below pays for it. */
export function buildIfStale(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Cold and warm `serve` on one store, the bundle beside tsx: two printed lines, and the figures. */
export async function compiledAgainstTsx(store: Store): Promise<{ lines: string[]; tsx: Figures }> {
  const compiled = await measure('compiled', store, true);
  const tsx = await measure('tsx', store, true);
  const faster = (baseline: number, value: number) =>
    value === baseline ? ''.padEnd(16) : `(×${ratio(baseline, value)} faster)`;
  const line = (name: string, figures: Figures) =>
    `${store.padEnd(8)} ${name.padEnd(22)} cold ${seconds(figures.cold ?? Number.NaN).padStart(8)} ${faster(tsx.cold ?? 0, figures.cold ?? 0)}` +
    `  warm ${seconds(figures.warm).padStart(8)} ${faster(tsx.warm, figures.warm)}  SIGTERM → exit ${seconds(figures.shutdown)}`;
  return { lines: [line('compiled (bundle)', compiled), line('tsx (baseline)', tsx)], tsx };
}
