import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any fixed number; every process that migrates takes the same lock, so only one applies each file. */
const MIGRATION_LOCK_KEY = 727_001;

export interface Migration {
  version: number;
  name: string;
  script: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number.parseInt(file.slice(0, 4), 10),
      name: file.replace(/\.sql$/, ''),
      script: readFileSync(join(dir, file), 'utf8'),
    }));
}

/** Applies every migration not yet recorded, each in its own transaction, under an advisory lock. */
export async function migrate(database: Database, migrations = listMigrations()): Promise<string[]> {
  return database.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    await database.runScript(
      'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
    );
    const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(
      database.db,
    );
    const applied = new Set(rows.map((row) => row.version));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      try {
        await database.runScript(
          `begin;\n${migration.script}\n;insert into schema_migrations (version, name) values (${migration.version}, '${migration.name}');\ncommit;`,
        );
      } catch (error) {
        await database.runScript('rollback').catch(() => {});
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(migration.name);
    }
    return done;
  });
}
