import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock.ts';
import { type HeldClaim, LeaseHeartbeat } from './lease-heartbeat.ts';

function heartbeat(clock: FakeClock, kept: (claims: readonly HeldClaim[]) => string[]) {
  const renewals: Array<{ claims: HeldClaim[]; until: number }> = [];
  const errors: unknown[] = [];
  const beat = new LeaseHeartbeat({
    clock,
    leaseMs: 15_000,
    intervalMs: 10_000, // the test beats by hand, long before this
    renew: async (claims, leaseUntil) => {
      renewals.push({ claims: [...claims], until: leaseUntil.getTime() });
      return new Set(kept(claims));
    },
    onRenewError: (error) => errors.push(error),
  });
  return { beat, renewals, errors };
}

test('one renewal extends every held claim from now, and remainingMs follows it', async () => {
  const clock = new FakeClock();
  const { beat, renewals } = heartbeat(clock, (claims) => claims.map((claim) => claim.id));
  beat.hold({ id: 'a', token: 't-a' }, beat.leaseFromNow());
  beat.hold({ id: 'b', token: 't-b' }, beat.leaseFromNow());
  clock.advance(10_000);
  assert.equal(beat.remainingMs('a'), 5_000);
  await beat.beat();
  assert.equal(renewals.length, 1);
  assert.deepEqual(
    renewals[0].claims.map((claim) => claim.token),
    ['t-a', 't-b'],
  );
  assert.equal(renewals[0].until, clock.now().getTime() + 15_000);
  assert.equal(beat.remainingMs('a'), 15_000);
  beat.release('a');
  beat.release('b');
  assert.equal(beat.remainingMs('a'), null);
  assert.equal(beat.size, 0);
  await beat.beat();
  assert.equal(renewals.length, 1, 'nothing held: no statement');
});

test('a claim the renewal did not keep is dropped and reported lost, once', async () => {
  const clock = new FakeClock();
  const { beat } = heartbeat(clock, () => ['kept']);
  const lost: string[] = [];
  beat.hold({ id: 'kept', token: '1' }, beat.leaseFromNow(), () => lost.push('kept'));
  beat.hold({ id: 'taken', token: '2' }, beat.leaseFromNow(), () => lost.push('taken'));
  await beat.beat();
  await beat.beat();
  assert.deepEqual(lost, ['taken']);
  assert.equal(beat.remainingMs('taken'), null);
  assert.equal(beat.size, 1);
  beat.stop();
});

test('a claim released or claimed again under a new token during a renewal is not reported lost', async () => {
  const clock = new FakeClock();
  let during: () => void = () => {};
  const lost: string[] = [];
  const beat = new LeaseHeartbeat({
    clock,
    leaseMs: 15_000,
    intervalMs: 10_000,
    renew: async () => {
      during();
      return new Set();
    },
    onRenewError: () => {},
  });
  beat.hold({ id: 'a', token: 'old' }, beat.leaseFromNow(), () => lost.push('a old'));
  beat.hold({ id: 'b', token: 'b' }, beat.leaseFromNow(), () => lost.push('b'));
  during = () => {
    beat.release('b');
    beat.hold({ id: 'a', token: 'new' }, beat.leaseFromNow(), () => lost.push('a new'));
  };
  await beat.beat();
  assert.deepEqual(lost, []);
  assert.equal(beat.size, 1);
  beat.stop();
});

test('a failed renewal is reported and keeps the claims, which simply run down', async () => {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const beat = new LeaseHeartbeat({
    clock,
    leaseMs: 15_000,
    intervalMs: 10_000,
    renew: async () => {
      throw new Error('database away');
    },
    onRenewError: (error) => errors.push(error),
  });
  beat.hold({ id: 'a', token: 'a' }, beat.leaseFromNow());
  clock.advance(16_000);
  await beat.beat();
  assert.equal(errors.length, 1);
  assert.equal(beat.remainingMs('a'), -1_000);
  beat.stop();
});

test('the timer beats every interval while something is held, and stops when nothing is', async () => {
  const clock = new FakeClock();
  let beats = 0;
  let resolveThird: () => void = () => {};
  const third = new Promise<void>((resolve) => {
    resolveThird = resolve;
  });
  const beat = new LeaseHeartbeat({
    clock,
    leaseMs: 60,
    renew: async (claims) => {
      beats += 1;
      if (beats === 3) resolveThird();
      return new Set(claims.map((claim) => claim.id));
    },
    onRenewError: () => {},
  });
  assert.equal(beat.intervalMs, 20, 'a third of the lease by default');
  // The heartbeat's timer is unref'd (it never keeps a process up): hold the test's loop open.
  const alive = setInterval(() => {}, 1_000);
  beat.hold({ id: 'a', token: 'a' }, beat.leaseFromNow());
  await third;
  beat.release('a');
  const after = beats;
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearInterval(alive);
  assert.equal(beats, after, 'released: no more beats');
  assert.throws(
    () =>
      new LeaseHeartbeat({
        clock,
        leaseMs: 10,
        intervalMs: 10,
        renew: async () => new Set(),
        onRenewError() {},
      }),
    /more often than the lease/,
  );
});
