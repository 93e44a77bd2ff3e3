import { type Kysely, sql } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** When a meeting took place (as `meetingAt` in analyses/goal-results.ts): ended, else started, else created. */
const meetingAt = sql<Date>`coalesce(meetings.ended_at, meetings.started_at, meetings.created_at)`;

/** A time window over `meetingAt`: `since` included, `until` excluded; either may be open. */
export interface Window {
  since: Date | null;
  until: Date | null;
}

/**
 * SQL of team analytics (docs/analytics.md). Every statement filters each table it reads by the
 * caller's account. Only meetings whose analysis completed count (`analysis_status = 'completed'`,
 * with their analysis row): a meeting whose analysis is running again is left out until it is done.
 */
export const analyticsRepository = {
  /**
   * The workspace's live scenarios, each with its analysed meetings: how many, how many distinct
   * people, the mean of the meetings' average percent of their goals' ranges, and the last one.
   */
  scenarioOverview(db: Kysely<DB>, accountId: string) {
    const scored = db
      .selectFrom('meetings')
      .innerJoin('analyses', (join) =>
        join.onRef('analyses.meeting_id', '=', 'meetings.id').on('analyses.account_id', '=', accountId),
      )
      .leftJoin('analysis_goal_results as results', (join) =>
        join.onRef('results.analysis_id', '=', 'analyses.id').on('results.account_id', '=', accountId),
      )
      .select([
        'meetings.id',
        'meetings.scenario_id',
        'meetings.person_id',
        meetingAt.as('at'),
        sql<number | null>`avg(case when results.score_max > results.score_min
          then (results.score - results.score_min) / (results.score_max - results.score_min) * 100 end)::float8`.as(
          'percent',
        ),
      ])
      .where('meetings.account_id', '=', accountId)
      .where('meetings.analysis_status', '=', 'completed')
      .groupBy('meetings.id');
    return db
      .with('scored', () => scored)
      .selectFrom('scenarios')
      .leftJoin('scored', 'scored.scenario_id', 'scenarios.id')
      .select([
        'scenarios.id',
        'scenarios.name',
        sql<number>`count(scored.id)::int`.as('meetings'),
        sql<number>`count(distinct scored.person_id)::int`.as('participants'),
        sql<number | null>`avg(scored.percent)::float8`.as('average_percent'),
        sql<Date | null>`max(scored.at)`.as('last_meeting_at'),
      ])
      .where('scenarios.account_id', '=', accountId)
      .where('scenarios.deleted_at', 'is', null)
      .groupBy('scenarios.id')
      .orderBy('scenarios.name', 'asc')
      .orderBy('scenarios.id', 'asc')
      .execute();
  },

  /** The scenario, deleted or not (its history stays readable). */
  scenario(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .select(['id', 'name', 'deleted_at'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /**
   * One row per analysed meeting and scored goal of the scenario in the window, oldest meeting
   * first and goals in their scoring order, with the meeting's person. At most `limit` rows.
   */
  goalResults(db: Kysely<DB>, accountId: string, scenarioId: string, window: Window, limit: number) {
    let query = db
      .selectFrom('meetings')
      .innerJoin('analyses', (join) =>
        join.onRef('analyses.meeting_id', '=', 'meetings.id').on('analyses.account_id', '=', accountId),
      )
      .innerJoin('analysis_goal_results as results', (join) =>
        join.onRef('results.analysis_id', '=', 'analyses.id').on('results.account_id', '=', accountId),
      )
      .leftJoin('people', (join) =>
        join.onRef('people.id', '=', 'meetings.person_id').on('people.account_id', '=', accountId),
      )
      .select([
        'meetings.id as meeting_id',
        meetingAt.as('at'),
        'meetings.person_id',
        'people.name as person_name',
        'people.email as person_email',
        'people.external_id as person_external_id',
        'results.goal_id',
        'results.goal',
        'results.score',
        'results.score_min',
        'results.score_max',
        'results.feedback',
        'results.position',
      ])
      .where('meetings.account_id', '=', accountId)
      .where('meetings.scenario_id', '=', scenarioId)
      .where('meetings.analysis_status', '=', 'completed');
    if (window.since) query = query.where(meetingAt, '>=', window.since);
    if (window.until) query = query.where(meetingAt, '<', window.until);
    return query
      .orderBy(meetingAt, 'asc')
      .orderBy('meetings.id', 'asc')
      .orderBy('results.position', 'asc')
      .limit(limit)
      .execute();
  },

  /**
   * Every person assigned a scenario of the workspace (one row per assignment and person), with the
   * assignment's due date and how many meetings their link started; `scenarioId` narrows to one.
   */
  assignmentTargets(db: Kysely<DB>, accountId: string, scenarioId?: string) {
    let query = db
      .selectFrom('assignment_people')
      .innerJoin('assignments', (join) =>
        join
          .onRef('assignments.id', '=', 'assignment_people.assignment_id')
          .on('assignments.account_id', '=', accountId),
      )
      .innerJoin('people', (join) =>
        join.onRef('people.id', '=', 'assignment_people.person_id').on('people.account_id', '=', accountId),
      )
      .select([
        'assignments.id as assignment_id',
        'assignments.scenario_id',
        'assignments.due_at',
        'assignments.created_at',
        'assignment_people.person_id',
        'assignment_people.completed_at',
        'people.name as person_name',
        'people.email as person_email',
        'people.external_id as person_external_id',
        sql<number>`(select count(*)::int from meetings
          where meetings.assignment_person_id = assignment_people.id
            and meetings.account_id = assignment_people.account_id)`.as('attempts'),
      ])
      .where('assignment_people.account_id', '=', accountId);
    if (scenarioId) query = query.where('assignments.scenario_id', '=', scenarioId);
    return query.orderBy('assignments.created_at', 'asc').orderBy('assignments.id', 'asc').execute();
  },
};
