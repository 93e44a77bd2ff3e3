import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { directQueryOf } from './direct-query.ts';

/** Stands for the call's `index`-th value while the statement is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template<Row> {
  query: CompiledQuery<Row>;
  /** For each parameter of the SQL, the call value it takes, or null for a value fixed at compile time. */
  slots: (number | null)[];
}

/**
 * A statement of one fixed shape, built and compiled by Kysely once per database handle and then
 * run with each call's values. On the hot reads (a workspace's list, a row by id) building and
 * compiling the statement anew cost about 8 µs of CPU per request, more than the rest of the
 * query's client-side work (bench/api-auth). `build` must give the same SQL for any values: it
 * may pass them to Kysely as values only, never branch on them (give each shape its own template).
 * A transaction is a handle of its own, so inside one the statement is compiled per transaction.
 */
export function compiledOnce<DB, Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const arity = build.length - 1;
  const templates = new WeakMap<Kysely<DB>, Template<Row>>();
  const templateFor = (db: Kysely<DB>): Template<Row> => {
    const found = templates.get(db);
    if (found) return found;
    const standIns = Array.from({ length: arity }, (_, index) => new Slot(index)) as unknown as Args;
    const query = build(db, ...standIns).compile();
    const slots = query.parameters.map((value) => (value instanceof Slot ? value.index : null));
    if (slots.filter((slot) => slot !== null).length !== arity)
      throw new Error('compiledOnce: every value must reach the SQL exactly once as a parameter');
    const template = { query, slots };
    templates.set(db, template);
    return template;
  };
  return async (db, ...args) => {
    const { query, slots } = templateFor(db);
    const parameters = query.parameters.slice();
    for (let i = 0; i < slots.length; i += 1) {
      const slot = slots[i]!;
      if (slot !== null) parameters[i] = args[slot];
    }
    const direct = directQueryOf(db);
    if (direct) return (await direct(query.sql, parameters)) as Row[];
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
