// `npm start`: runs the compiled server (dist/server/main.js), building it first when it is
// missing or older than the sources, then hands over to it in this same process (no second spawn,
// no TypeScript loader). Arguments pass through: `npm start -- --role api`.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build, ENTRY } from './build.mjs';

try {
  const ms = await build({ ifStale: true });
  if (ms) console.log(`build: bundled the server in ${ms} ms`);
} catch (error) {
  // A production install (no esbuild) whose sources look newer than the build: run the build there is.
  if (!existsSync(ENTRY)) {
    console.error(`build: ${error.message}`);
    process.exit(1);
  }
  console.warn(`build: ${error.message}; starting the existing build in dist/`);
}
await import(pathToFileURL(ENTRY).href);
