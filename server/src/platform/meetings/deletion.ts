// Deleting a meeting (DELETE /v1/meetings/{id}, and the workspace's retention sweep): its rows go
// in one transaction with the `meeting.deleted` event, and the recording's storage objects are
// removed by a durable job queued in that transaction, so they go if and only if the rows went.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import { defineJob, type JobQueue } from '../../core/jobs/index.ts';
import type { ObjectStorage } from '../../core/storage/index.ts';
import type { MeetingDeletionReason } from '../events/catalog.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { JOB_NAMES } from '../job-names.ts';
import { deletionRepository as repo } from './deletion-repository.ts';

export interface MeetingDeletionDeps {
  db: Kysely<DB>;
  clock: Clock;
  events: EventEmitter;
  jobs: JobQueue;
}

export interface DeletedMeeting {
  id: string;
  scenario_id: string;
  deleted_at: string;
}

export class MeetingDeletion {
  constructor(private readonly deps: MeetingDeletionDeps) {}

  /**
   * Deletes the workspace's meeting; null when there is none. A running meeting is refused with
   * 409 `meeting_active` (the participant is in the room: end it first); the retention sweep only
   * picks ended meetings, and one that was rejoined meanwhile is skipped the same way.
   */
  async delete(
    accountId: string,
    meetingId: string,
    reason: MeetingDeletionReason,
  ): Promise<DeletedMeeting | null> {
    const { db, clock, events, jobs } = this.deps;
    return db.transaction().execute(async (tx) => {
      const meeting = await repo.lockMeeting(tx, accountId, meetingId);
      if (!meeting) return null;
      if (meeting.status === 'active') {
        throw new AppError(
          'meeting_active',
          'The meeting is running. End it with PUT /meetings/{id}/end, then delete it.',
          { param: 'id' },
        );
      }
      const keys = await repo.storageKeys(tx, meeting.id);
      if (!(await repo.delete(tx, accountId, meeting.id))) return null;
      const deletedAt = clock.now().toISOString();
      await events.emit(tx, {
        accountId,
        event: 'meeting.deleted',
        data: { meeting_id: meeting.id, scenario_id: meeting.scenario_id, deleted_at: deletedAt, reason },
      });
      if (keys.length > 0) await jobs.enqueue(tx, JOB_NAMES.meetingPurgeMedia, { keys });
      return { id: meeting.id, scenario_id: meeting.scenario_id, deleted_at: deletedAt };
    });
  }
}

/** Removes a deleted meeting's recording objects; retried while the storage is unreachable. */
export function purgeMediaJob(storage: ObjectStorage) {
  return defineJob({
    name: JOB_NAMES.meetingPurgeMedia,
    payload: Type.Object({ keys: Type.Array(Type.String({ minLength: 1 })) }),
    retry: { maxAttempts: 10, backoffMs: 30_000, maxBackoffMs: 60 * 60_000 },
    // Deleting an absent key is not an error, so a retry after a partial run finishes the rest.
    handler: async ({ keys }) => {
      for (const key of keys) await storage.delete(key);
    },
  });
}
