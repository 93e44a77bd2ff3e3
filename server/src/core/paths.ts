import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest directory above this module that holds package.json.
 * Modules find the files they read or serve (web/, docs/, openapi/, the SQL migrations, avatars,
 * the speech sidecar) from here rather than beside themselves, because `npm start` runs a bundle
 * in dist/server where every module's own URL is the bundle's (scripts/build.mjs).
 */
function findRepoRoot(): string {
  const self = fileURLToPath(import.meta.url);
  for (let dir = dirname(self); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json in a directory above ${self}`);
  }
}

export const REPO_ROOT = findRepoRoot();

/** A path inside the repository, e.g. `repoPath('web', 'room')`. */
export const repoPath = (...segments: string[]): string => join(REPO_ROOT, ...segments);

/** A file kept beside the sources (SQL, SVG, Python), e.g. `sourcePath('core/db/migrations')`. */
export const sourcePath = (...segments: string[]): string => join(REPO_ROOT, 'server', 'src', ...segments);
