import { execFileSync } from 'node:child_process';

/**
 * Benchmarks run on PostgreSQL: DATABASE_URL when given, else a throwaway database on the local
 * server (created here, dropped by the returned cleanup).
 */
export function benchDatabaseUrl(name: string): { url: string; drop: () => void } {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: () => {} };
  const database = `bench_${name}_${process.pid}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', database]);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${database}`,
    drop: () => execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]),
  };
}

export function ratio(value: number, baseline: number): string {
  return baseline === 0 ? 'n/a' : (value / baseline).toFixed(2);
}
