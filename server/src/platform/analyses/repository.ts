import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { JOB_NAMES } from '../job-names.ts';

export type AnalysisRow = Selectable<DB['analyses']>;
export type GoalResultRow = Selectable<DB['analysis_goal_results']>;
export type AnalysisWithMeeting = AnalysisRow & { person_name: string | null; meeting_created_at: Date };

type NewAnalysis = Omit<Insertable<DB['analyses']>, 'id' | 'created_at'>;

/**
 * SQL of analyses and their goal results (every read filters by account), and of the meeting's
 * `analysis_status` around a run. The run's own writes go by meeting id alone: it is a job keyed
 * by the meeting, and the rows it reaches belong to that meeting's account.
 */
export const analysisRepository = {
  /**
   * Stores the meeting's analysis: inserts it, or replaces the content of the one it has (same
   * id, first created_at), and replaces its goal results. Returns the analysis id.
   */
  async upsert(
    db: Kysely<DB>,
    analysis: NewAnalysis & { id: string; created_at: Date },
    results: Omit<Insertable<DB['analysis_goal_results']>, 'analysis_id'>[],
  ): Promise<AnalysisRow> {
    const { id, created_at, ...content } = analysis;
    const row = await db
      .insertInto('analyses')
      .values({ id, created_at, ...content })
      .onConflict((conflict) => conflict.column('meeting_id').doUpdateSet(content))
      .returningAll()
      .executeTakeFirstOrThrow();
    await db.deleteFrom('analysis_goal_results').where('analysis_id', '=', row.id).execute();
    if (results.length > 0) {
      await db
        .insertInto('analysis_goal_results')
        .values(results.map((result) => ({ ...result, analysis_id: row.id })))
        .execute();
    }
    return row;
  },

  byMeeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return withMeeting(db)
      .where('analyses.account_id', '=', accountId)
      .where('analyses.meeting_id', '=', meetingId)
      .executeTakeFirst();
  },

  byId(db: Kysely<DB>, accountId: string, id: string) {
    return withMeeting(db)
      .where('analyses.account_id', '=', accountId)
      .where('analyses.id', '=', id)
      .executeTakeFirst();
  },

  list(db: Kysely<DB>, accountId: string, page: PageRequest | null, scenarioId?: string) {
    let query = withMeeting(db).where('analyses.account_id', '=', accountId);
    if (scenarioId) query = query.where('analyses.scenario_id', '=', scenarioId);
    return newestFirst(query, page, 'analyses').execute();
  },

  async goalResults(db: Kysely<DB>, analysisIds: string[]): Promise<Map<string, GoalResultRow[]>> {
    const byAnalysis = new Map<string, GoalResultRow[]>();
    if (analysisIds.length === 0) return byAnalysis;
    const rows = await db
      .selectFrom('analysis_goal_results')
      .selectAll()
      .where('analysis_id', 'in', analysisIds)
      .orderBy('analysis_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const list = byAnalysis.get(row.analysis_id) ?? [];
      list.push(row);
      byAnalysis.set(row.analysis_id, list);
    }
    return byAnalysis;
  },

  /** The meeting as the trigger route sees it; `forUpdate` holds it until the transaction ends. */
  findMeeting(db: Kysely<DB>, accountId: string, meetingId: string, forUpdate = false) {
    let query = db
      .selectFrom('meetings')
      .select(['id', 'status', 'analysis_status'])
      .where('account_id', '=', accountId)
      .where('id', '=', meetingId);
    if (forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  transcriptStatus(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('transcripts')
      .select('status')
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
  },

  /** The job of an analysis that is queued or running for the meeting, if any. */
  activeRunJob(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('jobs')
      .select(['id', 'state'])
      .where('name', '=', JOB_NAMES.analysisRun)
      .where('state', 'in', ['pending', 'running'])
      .where(sql<string>`payload->>'meeting_id'`, '=', meetingId)
      .executeTakeFirst();
  },

  /** Locks the meeting so concurrent runs settle one after the other. */
  lockMeeting(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select(['id'])
      .where('id', '=', meetingId)
      .forUpdate()
      .executeTakeFirst();
  },

  /** Locks the meeting and reads all of it (a failed run needs its status and scenario). */
  lockWholeMeeting(db: Kysely<DB>, meetingId: string) {
    return db.selectFrom('meetings').selectAll().where('id', '=', meetingId).forUpdate().executeTakeFirst();
  },

  /** A run is queued: the meeting shows `processing` at once. */
  markProcessing(db: Kysely<DB>, meetingId: string, now: Date) {
    return db
      .updateTable('meetings')
      .set({ analysis_status: 'processing', updated_at: now })
      .where('id', '=', meetingId)
      .execute();
  },

  /** A run starts: `processing`, leaving the meeting untouched when it already is. */
  markProcessingUnlessAlready(db: Kysely<DB>, meetingId: string, now: Date) {
    return db
      .updateTable('meetings')
      .set({ analysis_status: 'processing', updated_at: now })
      .where('id', '=', meetingId)
      .where('analysis_status', '!=', 'processing')
      .execute();
  },

  /** The run saved its analysis: the meeting carries its summary. */
  markCompleted(db: Kysely<DB>, meetingId: string, summary: string, now: Date) {
    return db
      .updateTable('meetings')
      .set({ analysis_status: 'completed', summary, updated_at: now })
      .where('id', '=', meetingId)
      .execute();
  },

  markFailed(db: Kysely<DB>, meetingId: string, now: Date) {
    return db
      .updateTable('meetings')
      .set({ analysis_status: 'failed', updated_at: now })
      .where('id', '=', meetingId)
      .execute();
  },

  /** Who the scenario's end-of-meeting email goes to. */
  notificationRecipients(db: Kysely<DB>, scenarioId: string) {
    return db
      .selectFrom('scenarios')
      .select(['notification_emails'])
      .where('id', '=', scenarioId)
      .executeTakeFirstOrThrow();
  },

  /** What the end-of-meeting email tells about the meeting, with its scenario's name and recipients. */
  notificationSubject(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .select([
        'meetings.id',
        'meetings.account_id',
        'meetings.person_name',
        'meetings.ended_at',
        'meetings.duration_seconds',
        'meetings.analysis_status',
        'scenarios.name as scenario_name',
        'scenarios.notification_emails',
      ])
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
  },
};

function withMeeting(db: Kysely<DB>) {
  return db
    .selectFrom('analyses')
    .innerJoin('meetings', 'meetings.id', 'analyses.meeting_id')
    .selectAll('analyses')
    .select(['meetings.person_name as person_name', 'meetings.created_at as meeting_created_at']);
}
