/**
 * The benchmark's producer, in its own process like an API server: emits events (one per
 * transaction, PRODUCER_LANES at a time) when told to, then reports each event's commit time.
 * Driven over IPC by run.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../server/src/core/clock.ts';
import { SecretBox } from '../../server/src/core/crypto/secret-box.ts';
import { openPostgres } from '../../server/src/core/db/database.ts';
import { createEventEmitter } from '../../server/src/platform/events/emitter.ts';

const env = process.env;
const database = await openPostgres(env.PRODUCER_DATABASE_URL!);
// Emitting never opens secrets: any key will do here.
const emitter = createEventEmitter({
  clock: systemClock,
  secretBox: new SecretBox(randomBytes(32)),
  legacyWebhookSunset: new Date(0),
});
const accountId = env.PRODUCER_ACCOUNT_ID!;
const lanes = Number(env.PRODUCER_LANES ?? 16);

process.on('message', async (message: { type: 'emit'; count: number }) => {
  const committed: Array<[string, number]> = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (started < message.count) {
        started += 1;
        const event = await database.db.transaction().execute((tx) =>
          emitter.emit(tx, {
            accountId,
            event: 'meeting.created',
            data: { meeting_id: randomUUID(), scenario_id: randomUUID() },
          }),
        );
        committed.push([event.id, performance.timeOrigin + performance.now()]);
      }
    }),
  );
  process.send!({ type: 'done', committed });
});

process.send!({ type: 'ready' });
