// Bundles server/src into dist/server with esbuild, so that `npm start` runs plain JavaScript and
// no TypeScript loader (tsx costs seconds at every start), and loads a few dozen files instead of
// about 1,300 modules (loading them was most of a restart: 2.0 s → 1.3 s on PGlite). Run by
// `npm run build`, by the `prepare` script on `npm install` / `npm ci`, and by scripts/start.mjs
// when dist is missing or older than the sources (a fresh clone started with --ignore-scripts, a
// `git pull`). Type checking is `npm run typecheck`'s job: the bundle only strips the types.
//
// Every module of the bundle has the bundle's URL, so the code finds the files it reads (web/,
// docs/, migrations, avatars, the speech sidecar) from the repository's root (core/paths.ts),
// never beside itself. The packages that read their own files at run time stay outside it.
//
//   node scripts/build.mjs             build now
//   node scripts/build.mjs --if-stale  build only when dist is missing or older than a source
//   node scripts/build.mjs --optional  (prepare) skip with a note when esbuild is not installed
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = join(ROOT, 'server', 'src');
const DIST = join(ROOT, 'dist');
export const OUTPUT = join(DIST, 'server');
export const ENTRY = join(OUTPUT, 'main.js');
const STAMP = join(DIST, '.build-stamp');
const LOCK = join(DIST, '.building');
/** Files besides the sources whose change calls for a new build. */
const BUILD_INPUTS = ['tsconfig.json', 'scripts/build.mjs', 'package.json', 'package-lock.json'];
/** The bundle's entry points, each written as dist/server/<name>.js beside the shared chunks. */
const ENTRY_POINTS = {
  main: 'server/src/main.ts',
  // A worker thread's module: flite.ts starts it from `./flite-worker.js` beside itself.
  'flite-worker': 'server/src/platform/speech/tts/flite-worker.ts',
};
/** Packages loaded from node_modules at run time: they read files beside themselves. */
const EXTERNAL = [
  '@electric-sql/pglite', // its WebAssembly and data files
  '@echogarden/*', // WebAssembly
  '@fastify/swagger', // its own package.json
  'pino', // pino and thread-stream start worker threads from their own files
  'thread-stream',
  'unpdf', // large and loaded only when a PDF is read
];
/** CommonJS packages inside an ES-module bundle still find `require`, `__filename` and `__dirname`. */
const BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  "const __dirname = __bundleFileURLToPath(new URL('.', import.meta.url));",
].join('\n');
/** A lock older than this belongs to a build that died. */
const STALE_LOCK_MS = 5 * 60_000;

const isTest = (name) => name.endsWith('.test.ts');

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (!isTest(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  // A deleted file changes its directory's mtime.
  return Math.max(newest, statSync(dir).mtimeMs);
}

/** True when there is no build, or a source or build input changed after it. */
export function isStale() {
  if (!existsSync(STAMP) || !existsSync(ENTRY)) return true;
  const built = statSync(STAMP).mtimeMs;
  const inputs = BUILD_INPUTS.map((file) => join(ROOT, file)).filter((file) => existsSync(file));
  return Math.max(newestSourceMtime(SOURCE), ...inputs.map((file) => statSync(file).mtimeMs)) > built;
}

async function loadEsbuild() {
  try {
    const path = createRequire(join(ROOT, 'package.json')).resolve('esbuild');
    return await import(pathToFileURL(path).href);
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One build at a time: processes started together (a deployment) wait for the first one's. */
async function withLock(task) {
  mkdirSync(DIST, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(LOCK).mtimeMs;
      } catch {
        continue;
      }
      if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    return await task();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function bundle() {
  const esbuild = await loadEsbuild();
  if (!esbuild) throw new Error('esbuild is not installed: run `npm install` (with dev dependencies) first');
  const started = Date.now();
  // Built beside the old output and swapped in, so a running process never sees half a build.
  const staging = join(DIST, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: ENTRY_POINTS,
      outdir: staging,
      bundle: true,
      splitting: true, // the parts main.ts imports only for some roles stay separate chunks
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      banner: { js: BANNER },
      keepNames: true, // class and function names as in the sources (errors, logs)
      sourcemap: 'linked', // NODE_OPTIONS=--enable-source-maps shows source lines in stacks
      logLevel: 'warning',
    });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`esbuild failed: ${error.message}`);
  }
  const previous = join(DIST, `.previous-${process.pid}`);
  if (existsSync(OUTPUT)) renameSync(OUTPUT, previous);
  renameSync(staging, OUTPUT);
  rmSync(previous, { recursive: true, force: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return Date.now() - started;
}

/** Builds when asked to (or when stale); returns the milliseconds spent, 0 when nothing was done. */
export async function build({ ifStale = false } = {}) {
  if (ifStale && !isStale()) return 0;
  return withLock(() => (ifStale && !isStale() ? 0 : bundle()));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--optional') && !(await loadEsbuild())) {
    console.log('build: esbuild is not installed (production install?); `npm start` builds when it can');
    process.exit(0);
  }
  try {
    const ms = await build({ ifStale: args.includes('--if-stale') });
    console.log(ms ? `build: bundled into ${relative(ROOT, OUTPUT)} in ${ms} ms` : 'build: dist is up to date');
  } catch (error) {
    console.error(`build: ${error.message}`);
    process.exit(1);
  }
}
