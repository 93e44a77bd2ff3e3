import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { toAppError } from '../http/error-handler.ts';
import { openPostgres } from './database.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const reachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(POSTGRES_URL);
  const socket = connect(Number(port || 5432), hostname);
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

test('connection failures and timeouts are unavailability (503 + Retry-After); refusals of a statement are not', () => {
  for (const error of [
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    Object.assign(new Error('connection failure'), { code: '08006' }),
    new Error('timeout exceeded when trying to connect'),
    new Error('Connection terminated unexpectedly'),
  ]) {
    assert.equal(isDatabaseUnavailable(error), true, error.message);
    const appError = toAppError(error);
    assert.equal(appError.code, 'service_unavailable');
    assert.equal(appError.status, 503);
    assert.equal(appError.headers['Retry-After'], '5');
  }
  for (const error of [
    Object.assign(new Error('duplicate key'), { code: '23505' }),
    Object.assign(new Error('syntax error'), { code: '42601' }),
    new Error('something else'),
  ]) {
    assert.equal(isDatabaseUnavailable(error), false, error.message);
  }
});

test('the statement timeout cuts a slow statement; migrations (runScript) are exempt and leave the pool bounded', {
  skip: !reachable && 'PostgreSQL is not reachable',
}, async () => {
  const name = `timeouts_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { connectTimeoutMs: 2_000, statementTimeoutMs: 200 });
  try {
    const cut = await sql`select pg_sleep(2)`.execute(database.db).catch((error: unknown) => error);
    assert.equal((cut as { code?: string }).code, '57014');
    assert.equal(toAppError(cut).status, 503);
    await database.runScript('select pg_sleep(0.4)');
    // Waiting for the migration lock another session holds is exempt too.
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(4242)');
      const waited = database.withAdvisoryLock(4242, async () => 'got it');
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query('select pg_advisory_unlock(4242)');
      assert.equal(await waited, 'got it');
    } finally {
      await holder.end();
    }
    // Every pooled session is back to the bound after the exempt ones.
    const settings = await Promise.all(
      Array.from({ length: 5 }, () =>
        sql<{ statement_timeout: string }>`show statement_timeout`.execute(database.db),
      ),
    );
    for (const { rows } of settings) assert.equal(rows[0]!.statement_timeout, '200ms');
  } finally {
    await database.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
});
