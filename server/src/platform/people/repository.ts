import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type PersonRow = Selectable<DB['people']>;

/** A person in any of `groups`, their names compared ignoring case. */
const inGroup = (groups: string[]) =>
  sql<boolean>`exists (select 1 from jsonb_array_elements_text(groups) as g(name) where lower(g.name) in (${sql.join(
    groups.map((group) => group.toLowerCase()),
  )}))`;

export const peopleRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['people']>) {
    return db.insertInto('people').values(values).returningAll().executeTakeFirstOrThrow();
  },
  /** The new person, or undefined when their e-mail or external id is already someone's. */
  insertUnlessTaken(db: Kysely<DB>, values: Insertable<DB['people']>) {
    return db
      .insertInto('people')
      .values(values)
      .onConflict((conflict) => conflict.doNothing())
      .returningAll()
      .executeTakeFirst();
  },
  list(
    db: Kysely<DB>,
    accountId: string,
    page: PageRequest | null,
    filters: { email?: string; externalId?: string; q?: string; group?: string },
  ) {
    let query = db.selectFrom('people').selectAll().where('account_id', '=', accountId);
    if (filters.group) query = query.where(inGroup([filters.group]));
    if (filters.email) query = query.where(sql`lower(email)`, '=', filters.email.toLowerCase());
    if (filters.externalId) query = query.where('external_id', '=', filters.externalId);
    if (filters.q) {
      const pattern = `%${filters.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(coalesce(email, ''))`, 'like', pattern)]),
      );
    }
    return newestFirst(query, page, 'people').execute();
  },
  find(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  byExternalId(db: Kysely<DB>, accountId: string, externalId: string) {
    return db
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
  },
  byEmail(db: Kysely<DB>, accountId: string, email: string) {
    return db
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  },
  /** The person an open link made for the visitor who typed this address. */
  byOpenLinkEmail(db: Kysely<DB>, accountId: string, email: string) {
    return db
      .selectFrom('people')
      .select('id')
      .where('account_id', '=', accountId)
      .where(sql`lower(open_link_email)`, '=', email.toLowerCase())
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
  },
  /** People known by this name only (no e-mail, no external id): at most two, to tell one from many. */
  byNameOnly(db: Kysely<DB>, accountId: string, name: string) {
    return db
      .selectFrom('people')
      .selectAll()
      .where('account_id', '=', accountId)
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .where('email', 'is', null)
      .where('external_id', 'is', null)
      .limit(2)
      .execute();
  },
  update(db: Kysely<DB>, accountId: string, id: string, values: Updateable<DB['people']>) {
    return db
      .updateTable('people')
      .set(values)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  delete(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .deleteFrom('people')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  },
  /** The person's meetings, oldest first, with their scenario and analysis (when there is one). */
  meetings(db: Kysely<DB>, accountId: string, personId: string) {
    return db
      .selectFrom('meetings')
      .leftJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .leftJoin('analyses', 'analyses.meeting_id', 'meetings.id')
      .select([
        'meetings.id',
        'meetings.scenario_id',
        'scenarios.name as scenario_name',
        'meetings.status',
        'meetings.created_at',
        'meetings.started_at',
        'meetings.ended_at',
        'meetings.duration_seconds',
        'meetings.analysis_status',
        'analyses.id as analysis_id',
        'analyses.average_score',
        'analyses.summary',
      ])
      .where('meetings.account_id', '=', accountId)
      .where('meetings.person_id', '=', personId)
      .orderBy('meetings.created_at', 'asc')
      .orderBy('meetings.id', 'asc')
      .limit(1000)
      .execute();
  },
  goalResults(db: Kysely<DB>, accountId: string, analysisIds: string[]) {
    if (analysisIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('analysis_goal_results')
      .select(['analysis_id', 'goal_id', 'goal', 'score', 'score_min', 'score_max', 'feedback', 'position'])
      .where('account_id', '=', accountId)
      .where('analysis_id', 'in', analysisIds)
      .orderBy('position', 'asc')
      .execute();
  },
  /** Meetings of the workspace that name this person, for the counts in lists. */
  async meetingCounts(db: Kysely<DB>, accountId: string, personIds: string[]) {
    if (personIds.length === 0) return new Map<string, number>();
    const rows = await db
      .selectFrom('meetings')
      .select(['person_id', sql<number>`count(*)::int`.as('count')])
      .where('account_id', '=', accountId)
      .where('person_id', 'in', personIds)
      .groupBy('person_id')
      .execute();
    return new Map(rows.map((row) => [row.person_id as string, Number(row.count)]));
  },
  /** Each group (one per name whatever its case) with how many people are in it. */
  groups(db: Kysely<DB>, accountId: string) {
    return db
      .selectFrom(
        sql<{
          id: string;
          name: string;
        }>`(select id, jsonb_array_elements_text(groups) as name from people where account_id = ${accountId})`.as(
          'g',
        ),
      )
      .select([
        // One spelling, the same on every server: by character code, capitals first ("Sales" over "sales").
        sql<string>`min(g.name collate "C")`.as('name'),
        sql<number>`count(distinct g.id)::int`.as('people'),
      ])
      .groupBy(sql`lower(g.name)`)
      .orderBy(sql`lower(g.name)`)
      .execute();
  },
  /** The people in any of `groups` (names compared ignoring case). */
  inGroups(db: Kysely<DB>, accountId: string, groups: string[]) {
    if (groups.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('people')
      .select(['id', 'name', 'email', 'groups'])
      .where('account_id', '=', accountId)
      .where(inGroup(groups))
      .execute();
  },
};
