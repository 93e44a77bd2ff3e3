// The platform under test for bench/dependency-outage, in its own process: PostgreSQL and Redis are
// reached through the runner's cuttable proxies (DATABASE_URL, REDIS_URL). Prints one JSON line.
import { createCoreDeps, disposeAll } from '../../server/src/app/core-deps.ts';
import { buildPlatformApp } from '../../server/src/app/platform-app.ts';
import { createPlatformDeps } from '../../server/src/app/platform-deps.ts';
import { benchConfig, benchWorkspace, listenOnLoopback } from '../lib/platform-server.ts';

const config = benchConfig('dependency-outage', { LOG_LEVEL: 'error', RUN_WORKERS: 'false' });
const deps = await createPlatformDeps(await createCoreDeps(config));
const app = await buildPlatformApp(deps);
const { base, call } = await listenOnLoopback(app);
const { key } = await benchWorkspace(call, 'outage');
console.log(JSON.stringify({ base, key }));

process.on('SIGTERM', async () => {
  await app.close();
  await disposeAll(deps);
  process.exit(0);
});
