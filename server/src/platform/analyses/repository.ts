import type { Insertable, Kysely, Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type AnalysisRow = Selectable<DB['analyses']>;
export type GoalResultRow = Selectable<DB['analysis_goal_results']>;
export type AnalysisWithMeeting = AnalysisRow & { person_name: string | null; meeting_created_at: Date };

type NewAnalysis = Omit<Insertable<DB['analyses']>, 'id' | 'created_at'>;

/** SQL of analyses and their goal results. Every read filters by account. */
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
};

function withMeeting(db: Kysely<DB>) {
  return db
    .selectFrom('analyses')
    .innerJoin('meetings', 'meetings.id', 'analyses.meeting_id')
    .selectAll('analyses')
    .select(['meetings.person_name as person_name', 'meetings.created_at as meeting_created_at']);
}
