// "Dependencies down, service up" (docs/reliability.md): the connection to Redis or PostgreSQL is
// cut with a loopback TCP proxy while the platform serves requests.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import pg from 'pg';
import { openPostgres } from '../../src/core/db/database.ts';
import { migrate } from '../../src/core/db/migrator.ts';
import type { RedisCircuit } from '../../src/core/redis-circuit.ts';
import { TcpProxy } from '../../src/core/testing/tcp-proxy.ts';
import { startPlatform, type TestPlatform } from '../harness.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const redisReachable = await reachable(REDIS_URL);
const postgresReachable = await reachable(POSTGRES_URL);

/** Waits (bounded) until `condition` holds; the test asserts the outcome, not how long it took. */
async function eventually(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Counts the commands other than the circuit's PING probes sent on the shared connection. */
function countCommands(circuit: RedisCircuit): { readonly sent: number } {
  const counter = { sent: 0 };
  const client = circuit.client;
  const original = client.sendCommand.bind(client);
  client.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    // The handshake of a reconnection (HELLO, CLIENT SETINFO) is not a request's command.
    if (command.name !== 'ping' && client.status === 'ready') counter.sent += 1;
    return (original as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof client.sendCommand;
  return counter;
}

async function gauge(t: TestPlatform, dependency: string): Promise<string | undefined> {
  const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
  return metrics.body.match(
    new RegExp(`^dependency_up\\{dependency="${dependency}"[^}]*\\} (\\d)$`, 'm'),
  )?.[1];
}

describe('Redis unreachable', { skip: !redisReachable && 'Redis is not reachable' }, () => {
  test('requests are served from the in-memory fallback at once; /readyz and the metric report it; the probe closes the circuit again', async () => {
    const proxy = await TcpProxy.start({
      host: new URL(REDIS_URL).hostname,
      port: Number(new URL(REDIS_URL).port || 6379),
    });
    const t = await startPlatform({
      env: { REDIS_URL: proxy.rewrite(REDIS_URL), REDIS_PROBE_INTERVAL_MS: '100' },
    });
    try {
      const circuit = t.deps.redis!;
      const client = await t.workspace();
      assert.equal(circuit.up, true, 'a healthy Redis starts with the circuit closed');
      const commands = countCommands(circuit);
      assert.equal((await client.call('GET', '/personas')).statusCode, 200);
      assert.ok(commands.sent > 0, 'budgets are counted in Redis while it answers');
      assert.deepEqual((await t.app.inject({ method: 'GET', url: '/readyz' })).json(), {
        status: 'ready',
        database: 'ok',
        redis: 'ok',
      });
      assert.equal(await gauge(t, 'redis'), '1');

      proxy.cut();
      // The first request after the cut may be the one that finds out (its command fails at once:
      // no offline queue); from then on the circuit is open.
      assert.equal((await client.call('GET', '/personas')).statusCode, 200);
      await eventually(() => !circuit.up, 'the circuit opens');
      const before = commands.sent;
      for (let i = 0; i < 20; i += 1) {
        const read = await client.call('GET', '/personas');
        assert.equal(read.statusCode, 200, read.body);
        assert.match(String(read.headers['ratelimit-remaining']), /^\d+$/, 'budgets still apply');
      }
      const write = await client.call(
        'POST',
        '/personas',
        { name: 'Outage Olly', job_title: 'SRE', demeanor: 'analytical', gender: 'male' },
        { 'idempotency-key': `outage-${randomBytes(4).toString('hex')}` },
      );
      assert.equal(write.statusCode, 201, write.body);
      assert.equal(
        commands.sent,
        before,
        'no request touched Redis (or waited for it) while the circuit is open',
      );
      const readyz = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(readyz.statusCode, 200, 'still routable: requests are served from the fallback');
      assert.deepEqual(readyz.json(), { status: 'degraded', database: 'ok', redis: 'unreachable' });
      assert.equal(await gauge(t, 'redis'), '0');

      proxy.restore();
      await eventually(() => circuit.up, 'the probe closes the circuit');
      assert.equal((await client.call('GET', '/personas')).statusCode, 200);
      assert.ok(commands.sent > before, 'budgets are counted in Redis again');
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).json().status, 'ready');
      assert.equal(await gauge(t, 'redis'), '1');
    } finally {
      await t.close();
      await proxy.close();
    }
  });
});

describe('PostgreSQL unreachable', { skip: !postgresReachable && 'PostgreSQL is not reachable' }, () => {
  async function admin(statement: string, url = POSTGRES_URL): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  test('requests get 503 service_unavailable with Retry-After, /readyz 503; both recover', async () => {
    const name = `outage_${randomBytes(6).toString('hex')}`;
    await admin(`create database ${name}`);
    const direct = new URL(POSTGRES_URL);
    direct.pathname = `/${name}`;
    const proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const database = await openPostgres(proxy.rewrite(direct.toString()), {
      connectTimeoutMs: 1_000,
      statementTimeoutMs: 5_000,
    });
    let t: TestPlatform | undefined;
    try {
      await migrate(database);
      t = await startPlatform({ database, env: { REDIS_URL: '' } });
      const client = await t.workspace();
      assert.equal((await client.call('GET', '/personas')).statusCode, 200);
      const heard: string[] = [];
      const unlisten = await database.listen('outage_probe', (payload) => heard.push(payload));

      proxy.cut();
      const refused = await client.call('GET', '/personas');
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(refused.headers['retry-after'], '5');
      assert.ok(refused.headers['x-request-id'], 'X-Request-Id');
      const body = refused.json();
      assert.equal(body.error.code, 'service_unavailable');
      assert.equal(body.error.type, 'api_error');
      assert.equal(body.request_id, refused.headers['x-request-id']);
      const write = await client.call('POST', '/personas', {
        name: 'Outage Olly',
        job_title: 'SRE',
        demeanor: 'analytical',
        gender: 'male',
      });
      assert.equal(write.statusCode, 503, write.body);
      const readyz = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(readyz.statusCode, 503);
      assert.deepEqual(readyz.json(), {
        status: 'unavailable',
        reason: 'database unreachable',
        database: 'unreachable',
        redis: 'not_configured',
      });
      assert.equal(await gauge(t, 'database'), '0');
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);

      proxy.restore();
      assert.equal((await client.call('GET', '/personas')).statusCode, 200, 'the pool reconnects');
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      assert.equal(await gauge(t, 'database'), '1');
      // A LISTEN lost in the outage is taken up again on a new connection.
      await eventually(async () => {
        await admin(`select pg_notify('outage_probe', 'back')`, direct.toString());
        return heard.includes('back');
      }, 'a notification reaches a listener registered before the outage');
      await unlisten();
    } finally {
      await t?.close();
      await database.close();
      await proxy.close();
      await admin(`drop database if exists ${name} with (force)`);
    }
  });
});
