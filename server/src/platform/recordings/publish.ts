import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { recordingRepository as repo } from './repository.ts';

/**
 * Publishes a meeting's uploaded recording: the record becomes `ready` and `recording.ready`
 * fires, in the caller's transaction. Only once, only after the meeting ended, and only when
 * the media has arrived (a thumbnail alone is not a recording). True when it published now.
 */
export async function publishRecording(
  tx: Kysely<DB>,
  deps: { clock: Clock; events: EventEmitter },
  meetingId: string,
): Promise<boolean> {
  const row = await repo.lockPublishable(tx, meetingId);
  if (!row || row.status === 'ready') return false;
  const now = deps.clock.now();
  await repo.markReady(tx, row.id, now);
  await deps.events.emit(tx, {
    accountId: row.account_id,
    event: 'recording.ready',
    data: { meeting_id: meetingId, scenario_id: row.scenario_id, recording_id: row.id },
  });
  return true;
}
