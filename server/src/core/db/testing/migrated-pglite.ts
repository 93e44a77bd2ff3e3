import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, openPGlite } from '../database.ts';
import { listMigrations, migrate } from '../migrator.ts';

/**
 * A migrated in-memory PGlite for tests. Starting PGlite runs initdb (about 2 s) and the migrations
 * take another 0.3 s; every test file pays that at least once. Instead the first caller on the
 * machine migrates once and dumps the data directory to a file named by the hash of the migrations
 * and the PGlite version; later callers load that dump (about 0.4 s). A changed migration changes
 * the name, so a stale template is never used.
 */
export async function openMigratedPGlite(): Promise<Database> {
  const database = await openPGlite(null, { loadDataDir: await template() });
  // A no-op on a current template; it keeps the contract "migrated" even if the dump were partial.
  await migrate(database);
  return database;
}

let loaded: Promise<Blob> | null = null;

function template(): Promise<Blob> {
  loaded ??= loadOrBuild();
  return loaded;
}

async function loadOrBuild(): Promise<Blob> {
  const file = join(tmpdir(), `understudy-pglite-${templateKey()}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const database = await openPGlite(null);
  await migrate(database);
  const dump = await database.dumpDataDir();
  await database.close();
  // Written beside and renamed, so a concurrent test file never reads half a dump.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return dump;
}

function templateKey(): string {
  const hash = createHash('sha256');
  // The package's entry file changes with every PGlite release (its exports hide package.json).
  hash.update(readFileSync(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))));
  for (const migration of listMigrations()) hash.update(`${migration.name}\n${migration.script}\n`);
  return hash.digest('hex').slice(0, 16);
}
