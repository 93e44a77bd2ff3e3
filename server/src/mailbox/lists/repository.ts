import { type ExpressionBuilder, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import { unique } from '../messages/addresses.ts';
import {
  addressKeys,
  type ListDirection,
  type ListEntryRow,
  type ListEvidence,
  type ListKind,
  type ListLevel,
  type ListPlace,
} from './policy.ts';

/** One list of one level: a namespace's (pod and inbox null), a pod's, or an inbox's. */
export interface ListTarget {
  namespaceId: string;
  podId: string | null;
  inboxId: string | null;
  list: ListKind;
}

type Entries = ExpressionBuilder<DB, 'mailbox_list_entries'>;

/** Exactly the target's level (an inbox's list is not its pod's, nor its namespace's). */
const atTarget = (eb: Entries, target: ListTarget) =>
  eb.and([
    eb('namespace_id', '=', target.namespaceId),
    target.podId === null ? eb('pod_id', 'is', null) : eb('pod_id', '=', target.podId),
    target.inboxId === null ? eb('inbox_id', 'is', null) : eb('inbox_id', '=', target.inboxId),
    eb('list', '=', target.list),
  ]);

/** The levels that apply to an inbox: its own, its pod's, its namespace's. */
function levelsOf(eb: Entries, place: ListPlace) {
  const levels = [
    eb.and([eb('pod_id', 'is', null), eb('inbox_id', 'is', null)]),
    eb.and([eb('pod_id', 'is', null), eb('inbox_id', '=', place.inboxId)]),
  ];
  if (place.podId) levels.push(eb.and([eb('pod_id', '=', place.podId), eb('inbox_id', 'is', null)]));
  return eb.or(levels);
}

export const listsRepository = {
  async insert(db: Executor, row: ListEntryRow): Promise<void> {
    await db.insertInto('mailbox_list_entries').values(row).execute();
  },

  async list(db: Executor, target: ListTarget, direction: ListDirection | undefined, page: PageRequest) {
    let query = db
      .selectFrom('mailbox_list_entries')
      .selectAll()
      .where((eb) => atTarget(eb, target));
    if (direction) query = query.where('direction', '=', direction);
    return newestFirst(query, page, 'mailbox_list_entries').execute();
  },

  async get(db: Executor, target: ListTarget, id: string) {
    return db
      .selectFrom('mailbox_list_entries')
      .selectAll()
      .where((eb) => atTarget(eb, target))
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_list_entries').where('id', '=', id).execute();
  },

  /**
   * What the lists of `place` say about `addresses` for one direction, as one JSON value
   * (`{ matches, allow_levels }`, see `evidenceFromJson`) to run alone or inside a larger
   * statement: the matching entries by the unique (namespace, direction, value) index, and for
   * each level whether it has an allow list at all (the level index, one row at most).
   */
  evidenceQuery(db: Executor, place: ListPlace, direction: ListDirection, addresses: string[]) {
    const values = unique(addresses.flatMap(addressKeys));
    const matches = db
      .selectFrom('mailbox_list_entries')
      .selectAll()
      .where('namespace_id', '=', place.namespaceId)
      .where('direction', '=', direction)
      .where('value', 'in', values.length ? values : [''])
      .where((eb) => levelsOf(eb, place));
    const allowAt = (podId: string | null, inboxId: string | null) =>
      db
        .selectFrom('mailbox_list_entries')
        .select(sql.lit(1).as('one'))
        .where((eb) => atTarget(eb, { namespaceId: place.namespaceId, podId, inboxId, list: 'allow' }))
        .where('direction', '=', direction)
        .limit(1);
    return sql<Record<string, unknown>>`json_build_object(
      'matches', (select coalesce(json_agg(m), '[]') from (${matches}) as m),
      'allow_levels', json_build_object(
        'inbox', exists(${allowAt(null, place.inboxId)}),
        'pod', ${place.podId ? sql`exists(${allowAt(place.podId, null)})` : sql`false`},
        'namespace', exists(${allowAt(null, null)})))`;
  },

  async evidence(
    db: Executor,
    place: ListPlace,
    direction: ListDirection,
    addresses: string[],
  ): Promise<ListEvidence> {
    const { rows } = await sql<{ evidence: Record<string, unknown> }>`select ${listsRepository.evidenceQuery(
      db,
      place,
      direction,
      addresses,
    )} as evidence`.execute(db);
    return evidenceFromJson(rows[0]!.evidence);
  },
};

/** The JSON of `evidenceQuery` read back: timestamps arrive as strings. */
export function evidenceFromJson(json: Record<string, unknown>): ListEvidence {
  const matches = (json.matches as Array<Record<string, unknown>>).map(
    (entry) => ({ ...entry, created_at: new Date(entry.created_at as string) }) as unknown as ListEntryRow,
  );
  const flags = json.allow_levels as Record<ListLevel, boolean>;
  const allowLevels = (Object.keys(flags) as ListLevel[]).filter((level) => flags[level]);
  return { matches, allowLevels };
}
