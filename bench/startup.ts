// bench/startup: time from spawn to the first 200 of /healthz for `serve`, as bench/lib/startup.ts
// measures it (the bundle against tsx, cold and warm, on PGlite and on PostgreSQL, in the same
// run), then the time from SIGTERM to exit. Also `npm start` / `npm run dev` (the same two through
// npm), and `serve --role api` alone.
// Usage: npx tsx bench/startup.ts   (PostgreSQL on 127.0.0.1 as in bench/lib/postgres.ts; the
// bundle is built first when it is stale)
import { ratio } from './lib/postgres.ts';
import { buildIfStale, compiledAgainstTsx, loadAverage, measure, RUNS, seconds } from './lib/startup.ts';

buildIfStale();
console.log(
  `bench/startup — spawn → /healthz 200, median of ${RUNS} warm starts; load average ${loadAverage()}`,
);
for (const store of ['pglite', 'postgres'] as const) {
  const { lines, tsx } = await compiledAgainstTsx(store);
  console.log(lines.join('\n'));
  const role = await measure('compiled --role api', store, false);
  console.log(
    `${store.padEnd(8)} ${'compiled --role api'.padEnd(22)} warm ${seconds(role.warm).padStart(8)}  (×${ratio(tsx.warm, role.warm)} faster than tsx serve)  SIGTERM → exit ${seconds(role.shutdown)}`,
  );
  if (store === 'pglite') {
    const npmStart = await measure('npm start', store, false);
    const npmDev = await measure('npm run dev (tsx)', store, false);
    console.log(
      `${store.padEnd(8)} ${'npm start'.padEnd(22)} warm ${seconds(npmStart.warm).padStart(8)}  (×${ratio(npmDev.warm, npmStart.warm)} faster than npm run dev)`,
    );
    console.log(
      `${store.padEnd(8)} ${'npm run dev (tsx)'.padEnd(22)} warm ${seconds(npmDev.warm).padStart(8)}`,
    );
  }
}
console.log(`load average after: ${loadAverage()}`);
