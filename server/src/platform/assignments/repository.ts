import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export type AssignmentRow = Selectable<DB['assignments']>;
export type TargetRow = Selectable<DB['assignment_people']>;

export const assignmentRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['assignments']>) {
    return db.insertInto('assignments').values(values).returningAll().executeTakeFirstOrThrow();
  },
  insertTargets(db: Kysely<DB>, values: Insertable<DB['assignment_people']>[]) {
    return db.insertInto('assignment_people').values(values).execute();
  },
  /** The newest 500 assignments of the workspace with their scenario's name. */
  list(db: Kysely<DB>, accountId: string) {
    return db
      .selectFrom('assignments')
      .leftJoin('scenarios', 'scenarios.id', 'assignments.scenario_id')
      .selectAll('assignments')
      .select('scenarios.name as scenario_name')
      .where('assignments.account_id', '=', accountId)
      .orderBy('assignments.created_at', 'desc')
      .orderBy('assignments.id', 'desc')
      .limit(500)
      .execute();
  },
  find(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('assignments')
      .leftJoin('scenarios', 'scenarios.id', 'assignments.scenario_id')
      .selectAll('assignments')
      .select('scenarios.name as scenario_name')
      .where('assignments.account_id', '=', accountId)
      .where('assignments.id', '=', id)
      .executeTakeFirst();
  },
  update(db: Kysely<DB>, accountId: string, id: string, values: Updateable<DB['assignments']>) {
    return db
      .updateTable('assignments')
      .set(values)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  },
  delete(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .deleteFrom('assignments')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  },
  /** Each assigned person with their name, address and how many meetings their link started. */
  targets(db: Kysely<DB>, accountId: string, assignmentIds: string[]) {
    if (assignmentIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('assignment_people')
      .innerJoin('people', 'people.id', 'assignment_people.person_id')
      .selectAll('assignment_people')
      .select([
        'people.name as person_name',
        'people.email as person_email',
        sql<number>`(select count(*)::int from meetings where meetings.assignment_person_id = assignment_people.id)`.as(
          'attempts',
        ),
      ])
      .where('assignment_people.account_id', '=', accountId)
      .where('assignment_people.assignment_id', 'in', assignmentIds)
      .orderBy('people.name', 'asc')
      .execute();
  },
  /** What a personal link opens: the assignment, its scenario and person, and the attempts used. */
  byToken(db: Kysely<DB>, tokenHash: string) {
    return db
      .selectFrom('assignment_people')
      .innerJoin('assignments', 'assignments.id', 'assignment_people.assignment_id')
      .innerJoin('people', 'people.id', 'assignment_people.person_id')
      .innerJoin('scenarios', 'scenarios.id', 'assignments.scenario_id')
      .select([
        'assignment_people.id',
        'assignment_people.account_id',
        'assignment_people.person_id',
        'assignment_people.completed_at',
        'assignments.id as assignment_id',
        'assignments.scenario_id',
        'assignments.due_at',
        'assignments.max_attempts',
        'assignments.note',
        'assignments.created_by',
        'scenarios.name as scenario_name',
        'scenarios.deleted_at as scenario_deleted_at',
        'people.name as person_name',
        sql<number>`(select count(*)::int from meetings where meetings.assignment_person_id = assignment_people.id)`.as(
          'attempts',
        ),
      ])
      .where('assignment_people.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },
  /** Locks the person's assignment while a meeting is started, so two clicks use one attempt each. */
  lockTarget(db: Kysely<DB>, id: string) {
    return db
      .selectFrom('assignment_people')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },
  attempts(db: Kysely<DB>, targetId: string) {
    return db
      .selectFrom('meetings')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('assignment_person_id', '=', targetId)
      .executeTakeFirstOrThrow();
  },
  linkMeeting(db: Kysely<DB>, meetingId: string, targetId: string) {
    return db
      .updateTable('meetings')
      .set({ assignment_person_id: targetId })
      .where('id', '=', meetingId)
      .execute();
  },
  /** Marks the person's assignment done by `meetingId`, once; the row when this call did it. */
  complete(db: Kysely<DB>, targetId: string, meetingId: string, now: Date) {
    return db
      .updateTable('assignment_people')
      .set({ completed_at: now, completed_meeting_id: meetingId })
      .where('id', '=', targetId)
      .where('completed_at', 'is', null)
      .returning(['id', 'assignment_id', 'person_id', 'account_id'])
      .executeTakeFirst();
  },
  liveScenario(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('scenarios')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },
  peopleOf(db: Kysely<DB>, accountId: string, ids: string[]) {
    return db
      .selectFrom('people')
      .select(['id', 'name', 'email'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  },
  /** What the assignment e-mail says: the person, their link, the scenario and who assigned it. */
  forEmail(db: Kysely<DB>, targetId: string) {
    return db
      .selectFrom('assignment_people')
      .innerJoin('assignments', 'assignments.id', 'assignment_people.assignment_id')
      .innerJoin('people', 'people.id', 'assignment_people.person_id')
      .innerJoin('scenarios', 'scenarios.id', 'assignments.scenario_id')
      .leftJoin('memberships', 'memberships.id', 'assignments.created_by')
      .leftJoin('users', 'users.id', 'memberships.user_id')
      .select([
        'assignment_people.id',
        'assignment_people.token_sealed',
        'assignment_people.emailed_at',
        'assignments.due_at',
        'assignments.max_attempts',
        'assignments.note',
        'scenarios.name as scenario_name',
        'people.name as person_name',
        'people.email as person_email',
        'users.name as assigned_by',
      ])
      .where('assignment_people.id', '=', targetId)
      .where('scenarios.deleted_at', 'is', null)
      .executeTakeFirst();
  },
  markEmailed(db: Kysely<DB>, targetId: string, now: Date) {
    return db.updateTable('assignment_people').set({ emailed_at: now }).where('id', '=', targetId).execute();
  },
};
