import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.ts';
import { sourcePath } from '../paths.ts';
import type { Database } from './database.ts';
import { codeMigrations } from './migrations/code-migrations.ts';
import type { DB } from './schema.ts';

const MIGRATIONS_DIR = sourcePath('core', 'db', 'migrations');
/** Any fixed number; every process that migrates takes the same lock, so only one applies each file. */
const MIGRATION_LOCK_KEY = 727_001;

export interface Migration {
  version: number;
  name: string;
  script: string;
}

/**
 * A data migration SQL cannot express (sealing values with the application's key). Numbered in
 * the same sequence as the SQL files and recorded in the same table, applied in one transaction.
 */
export interface CodeMigration {
  version: number;
  name: string;
  run(tx: Kysely<DB>, context: MigrationContext): Promise<void>;
}

/** What code migrations need; without it (a bare schema for tests) they are left for later. */
export interface MigrationContext {
  secretBox: SecretBox;
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

/**
 * Applies every migration not yet recorded, each in its own transaction, under an advisory lock.
 * Code migrations run only when a context is given (the application's start and `migrate`).
 */
export async function migrate(
  database: Database,
  migrations = listMigrations(),
  context?: MigrationContext,
  code: CodeMigration[] = codeMigrations,
): Promise<string[]> {
  return database.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    await database.runScript(
      'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
    );
    const { rows } = await sql<{ version: number }>`select version from schema_migrations`.execute(
      database.db,
    );
    const applied = new Set(rows.map((row) => row.version));
    const steps: (Migration | CodeMigration)[] = [...migrations, ...(context ? code : [])].sort(
      (a, b) => a.version - b.version,
    );
    const done: string[] = [];
    for (const migration of steps) {
      if (applied.has(migration.version)) continue;
      try {
        if ('script' in migration) {
          await database.runScript(
            `begin;\n${migration.script}\n;insert into schema_migrations (version, name) values (${migration.version}, '${migration.name}');\ncommit;`,
          );
        } else {
          await database.db.transaction().execute(async (tx) => {
            await migration.run(tx, context!);
            await sql`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`.execute(
              tx,
            );
          });
        }
      } catch (error) {
        if ('script' in migration) await database.runScript('rollback').catch(() => {});
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(migration.name);
    }
    return done;
  });
}
