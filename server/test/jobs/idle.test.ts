import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { openTestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { startWorkers } from '../../src/core/workers.ts';
import { createMailboxDeps } from '../../src/mailbox/wiring.ts';
import { startPlatform } from '../harness.ts';

/** Both engines' query entry points, counted while `window` runs. */
async function countQueries(window: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const pgQuery = pg.Client.prototype.query;
  const pgliteQuery = PGlite.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = args[0];
    seen.push(typeof text === 'string' ? text : String((text as { text?: string })?.text));
    return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pgQuery;
  PGlite.prototype.query = function (this: PGlite, ...args: unknown[]) {
    seen.push(String(args[0]));
    return (pgliteQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pgliteQuery;
  try {
    await window();
  } finally {
    pg.Client.prototype.query = pgQuery;
    PGlite.prototype.query = pgliteQuery;
  }
  return seen;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Lean at rest (issue 15, item 6): with every background worker of the platform and the mailbox
 * running and nothing to do, an instance makes close to no queries. The workers wake on NOTIFY
 * and at due times they know of; only a slow safety-net poll (30 s) and the meeting sweeper
 * (15 s) look by themselves, so a 5 s window sees at most one of those.
 */
test('an idle instance with all its workers running makes close to no queries', async () => {
  const shared = await openTestDatabase();
  const t = await startPlatform({ database: shared.database });
  const mailbox = await createMailboxDeps(t.deps);
  const stopWorkers = await startWorkers([...t.deps.workers, ...mailbox.workers]);
  try {
    // Start-up: each loop looks once and reads when its next work is due.
    await sleep(1_500);
    const counted = await countQueries(async () => {
      // The counter's own check: this query must be seen.
      await sql`select 'counted' as probe`.execute(t.deps.db);
      await sleep(5_000);
    });
    assert.ok(
      counted.some((text) => text.includes('counted')),
      'the counter sees queries',
    );
    const queries = counted.filter((text) => !text.includes('counted'));
    assert.ok(queries.length <= 2, `idle for 5 s: ${queries.length} queries: ${queries.join(' | ')}`);
    console.log(`idle instance (${shared.database.engine}): ${queries.length} queries in 5 s`);
  } finally {
    await stopWorkers();
    await t.close();
    await shared.close();
  }
});
