import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Starts a benchmark server script in its own process (so the load generator does not share its
 * event loop) and resolves with the first JSON line it prints on stdout.
 */
export async function startChild<T>(
  script: string,
  env: Record<string, string>,
): Promise<{ info: T; child: ChildProcess }> {
  // BENCH_CHILD_ARGS passes extra Node flags to the server, e.g. `--cpu-prof` to profile it.
  const extra = (process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', script], {
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

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
}
