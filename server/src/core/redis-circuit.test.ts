import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { RedisCircuit } from './redis-circuit.ts';
import { TcpProxy } from './testing/tcp-proxy.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const target = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };

const reachable = await new Promise<boolean>((resolve) => {
  const socket = connect(target.port, target.host);
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const [outage, start] of [
  ['dropped', (proxy: TcpProxy) => proxy.cut()],
  ['stalled (a partition: the command timeout finds it)', (proxy: TcpProxy) => proxy.stall()],
] as const) {
  test(`a ${outage} connection opens the circuit once, callers use the fallback without touching Redis, the probe closes it`, {
    skip: !reachable && 'Redis is not reachable',
  }, async () => {
    const proxy = await TcpProxy.start(target);
    const { logger, lines } = recordingLogger();
    // A command timeout a loaded CI machine's PING stays well inside (a stall takes that long to find).
    const circuit = new RedisCircuit(proxy.rewrite(REDIS_URL), {
      commandTimeoutMs: 1_000,
      probeIntervalMs: 100,
      logger,
    });
    const transitions = () =>
      lines
        .filter((line) => /redis (unreachable|reachable again)/.test(line.msg))
        .map((line) => [line.level, line.msg]);
    const OPENED = [40, 'redis unreachable: circuit open, serving from in-memory fallbacks'];
    const CLOSED = [30, 'redis reachable again: circuit closed'];
    try {
      await circuit.ready(5_000);
      assert.equal(circuit.up, true);
      let worked = 0;
      const work = async () => {
        worked += 1;
        return (await circuit.client.ping()) === 'PONG' ? 'redis' : 'odd';
      };
      const fallback = async () => 'memory';
      assert.equal(await circuit.run(work, fallback), 'redis');

      const beforeOutage = transitions().length;
      start(proxy);
      // The call that finds the outage is answered by the fallback too.
      assert.equal(await circuit.run(work, fallback), 'memory');
      assert.equal(circuit.up, false);
      worked = 0;
      for (let i = 0; i < 50; i += 1) assert.equal(await circuit.run(work, fallback), 'memory');
      assert.equal(worked, 0, 'an open circuit answers from the fallback without trying Redis');
      // Let the probe fail many times: the outage is still logged once.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(circuit.up, false);
      assert.deepEqual(transitions().slice(beforeOutage), [OPENED]);

      proxy.restore();
      await eventually(() => circuit.up, 'the probe closes the circuit');
      assert.equal(await circuit.run(work, fallback), 'redis');
      // Every outage is logged once and every recovery after it once: the lines alternate. (A probe
      // slower than the timeout on a loaded machine is an outage of its own, so more pairs may come.)
      const logged = transitions();
      assert.deepEqual(logged.slice(beforeOutage, beforeOutage + 2), [OPENED, CLOSED]);
      for (const [i, line] of logged.entries()) assert.deepEqual(line, i % 2 === 0 ? OPENED : CLOSED);
    } finally {
      circuit.close();
      await proxy.close();
    }
  });
}

test('a rejection that is an answer (not a failure) passes through and leaves the circuit closed', {
  skip: !reachable && 'Redis is not reachable',
}, async () => {
  const circuit = new RedisCircuit(REDIS_URL, {
    commandTimeoutMs: 500,
    probeIntervalMs: 1_000,
    logger: pino({ level: 'silent' }),
  });
  try {
    await circuit.ready(5_000);
    const refusal = new Error('no budget left');
    await assert.rejects(
      circuit.run(
        () => Promise.reject(refusal),
        async () => 'memory',
        (rejection) => rejection === refusal,
      ),
      refusal,
    );
    assert.equal(circuit.up, true);
  } finally {
    circuit.close();
  }
});
