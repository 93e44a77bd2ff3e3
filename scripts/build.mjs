// Compiles server/src to JavaScript in dist/server, so that `npm start` runs plain Node and no
// TypeScript loader (tsx costs seconds at every start). Run by `npm run build`, by the `prepare`
// script on `npm install` / `npm ci`, and by scripts/start.mjs when dist is missing or older than
// the sources (a fresh clone started with --ignore-scripts, a `git pull`).
//
// dist/server has the same depth below the repository as server/src, so the paths the code builds
// from import.meta.url to web/, docs/ and openapi/ (four levels up) land in the same places; the
// files read next to a module (migrations, avatars, the speech sidecar) are copied beside it.
//
//   node scripts/build.mjs             build now
//   node scripts/build.mjs --if-stale  build only when dist is missing or older than a source
//   node scripts/build.mjs --optional  (prepare) skip with a note when TypeScript is not installed
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = join(ROOT, 'server', 'src');
const DIST = join(ROOT, 'dist');
export const OUTPUT = join(DIST, 'server');
export const ENTRY = join(OUTPUT, 'main.js');
const STAMP = join(DIST, '.build-stamp');
const LOCK = join(DIST, '.building');
/** Files besides the sources whose change calls for a new build. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'package.json'];
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

function typescriptCompiler() {
  try {
    return createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/** Copies what the modules read beside themselves (SQL, SVG, Python, worker entries, texts). */
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!entry.name.endsWith('.ts')) {
      mkdirSync(dirname(target), { recursive: true });
      cpSync(source, target);
    }
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

function compile() {
  const tsc = typescriptCompiler();
  if (!tsc) throw new Error('TypeScript is not installed: run `npm install` (with dev dependencies) first');
  const started = Date.now();
  // Built beside the old output and swapped in, so a running process never sees half a build.
  const staging = join(DIST, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', staging], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`tsc failed (exit ${run.status})`);
  }
  copyAssets(SOURCE, staging);
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
  return withLock(() => (ifStale && !isStale() ? 0 : compile()));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args.includes('--optional') && !typescriptCompiler()) {
    console.log('build: TypeScript is not installed (production install?); `npm start` builds when it can');
    process.exit(0);
  }
  try {
    const ms = await build({ ifStale: args.includes('--if-stale') });
    console.log(ms ? `build: compiled to ${relative(ROOT, OUTPUT)} in ${ms} ms` : 'build: dist is up to date');
  } catch (error) {
    console.error(`build: ${error.message}`);
    process.exit(1);
  }
}
