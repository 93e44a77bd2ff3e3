import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/**
 * SQL of what an analysis run reads about one meeting (material.ts). The run is a job keyed by
 * the meeting id alone, so these reads go by the meeting's own ids: the account comes from the
 * meeting row, and every later row is reached through it.
 */
export const materialRepository = {
  meeting(db: Kysely<DB>, meetingId: string) {
    return db.selectFrom('meetings').selectAll().where('id', '=', meetingId).executeTakeFirst();
  },

  /** The meeting's scenario; it always exists (meetings reference it). */
  scenario(db: Kysely<DB>, scenarioId: string) {
    return db.selectFrom('scenarios').selectAll().where('id', '=', scenarioId).executeTakeFirstOrThrow();
  },

  /** Active goals linked to the scenario, in the scenario's order. */
  activeGoals(db: Kysely<DB>, scenarioId: string) {
    return db
      .selectFrom('scenario_goals')
      .innerJoin('goals', 'goals.id', 'scenario_goals.goal_id')
      .selectAll('goals')
      .where('scenario_goals.scenario_id', '=', scenarioId)
      .where('goals.active', '=', true)
      .orderBy('scenario_goals.position')
      .orderBy('scenario_goals.created_at')
      .orderBy('goals.id')
      .execute();
  },

  /** The participant the analysis is about: the one marked as self, else the first to join. */
  participant(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meeting_participants')
      .select(['id', 'name'])
      .where('meeting_id', '=', meetingId)
      .orderBy('is_self', 'desc')
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
  },

  transcript(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('transcripts')
      .select(['id', 'status'])
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
  },

  persona(db: Kysely<DB>, personaId: string) {
    return db
      .selectFrom('personas')
      .select(['name', 'job_title'])
      .where('id', '=', personaId)
      .executeTakeFirst();
  },

  /** The transcript's sentences in the order they were spoken. */
  sentences(db: Kysely<DB>, transcriptId: number) {
    return db
      .selectFrom('transcript_sentences')
      .select(['id', 'speaker', 'message', 'start_ms', 'end_ms', 'input'])
      .where('transcript_id', '=', transcriptId)
      .orderBy('sequence_number')
      .execute();
  },
};
