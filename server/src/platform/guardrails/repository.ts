import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import type { DB } from '../../core/db/schema.ts';

export type GuardrailRow = Selectable<DB['guardrails']>;
export type AttachmentRow = Selectable<DB['scenario_guardrails']>;
export type ScenarioGuardrailRow = GuardrailRow & {
  attachment_active: boolean;
  position: number;
  attached_at: Date;
  attachment_updated_at: Date;
  scenario_id: string;
};

/** Where a position-ordered page stopped: (position, attached_at, guardrail id). */
export interface AttachmentPosition {
  position: number;
  attachedAt: string;
  guardrailId: string;
}

const guardrails = accountScoped('guardrails');

export const guardrailRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['guardrails']>) {
    return db.insertInto('guardrails').values(values).returningAll().executeTakeFirstOrThrow();
  },

  list: guardrails.list,

  find: guardrails.find,

  findByName(db: Kysely<DB>, accountId: string, name: string) {
    return db
      .selectFrom('guardrails')
      .select('id')
      .where('account_id', '=', accountId)
      .where('guardrail_name', '=', name)
      .executeTakeFirst();
  },

  update: guardrails.update,

  delete: guardrails.delete,

  /** Live scenarios a guardrail is attached to, in attach order. */
  scenariosOf(db: Kysely<DB>, accountId: string, guardrailId: string) {
    return db
      .selectFrom('scenario_guardrails as sg')
      .innerJoin('scenarios as s', 's.id', 'sg.scenario_id')
      .select(['s.id', 's.name', 'sg.active', 'sg.position', 'sg.attached_at'])
      .where('sg.account_id', '=', accountId)
      .where('sg.guardrail_id', '=', guardrailId)
      .where('s.account_id', '=', accountId)
      .where('s.deleted_at', 'is', null)
      .orderBy('sg.attached_at')
      .orderBy('s.id')
      .execute();
  },

  findAttachment(db: Kysely<DB>, accountId: string, scenarioId: string, guardrailId: string) {
    return db
      .selectFrom('scenario_guardrails')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .where('guardrail_id', '=', guardrailId)
      .executeTakeFirst();
  },

  /** The position after the scenario's last attachment (0 for the first). */
  async nextPosition(db: Kysely<DB>, accountId: string, scenarioId: string): Promise<number> {
    const row = await db
      .selectFrom('scenario_guardrails')
      .select(sql<number | null>`max(position)`.as('max'))
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .executeTakeFirst();
    return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
  },

  /** Attaches, or re-activates (and optionally moves) an existing attachment: attach is idempotent. */
  upsertAttachment(db: Kysely<DB>, values: Insertable<DB['scenario_guardrails']>, positionGiven: boolean) {
    return db
      .insertInto('scenario_guardrails')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['scenario_id', 'guardrail_id']).doUpdateSet((eb) => ({
          active: true,
          position: positionGiven ? eb.ref('excluded.position') : eb.ref('scenario_guardrails.position'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  updateAttachment(
    db: Kysely<DB>,
    accountId: string,
    scenarioId: string,
    guardrailId: string,
    values: Updateable<DB['scenario_guardrails']>,
  ) {
    return db
      .updateTable('scenario_guardrails')
      .set(values)
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .where('guardrail_id', '=', guardrailId)
      .returningAll()
      .executeTakeFirst();
  },

  deleteAttachment(db: Kysely<DB>, accountId: string, scenarioId: string, guardrailId: string) {
    return db
      .deleteFrom('scenario_guardrails')
      .where('account_id', '=', accountId)
      .where('scenario_id', '=', scenarioId)
      .where('guardrail_id', '=', guardrailId)
      .returning('guardrail_id')
      .executeTakeFirst();
  },

  /**
   * The scenario's guardrails in block order (position, then attach time, then id), optionally
   * only those in effect, and optionally one page after `after`.
   */
  forScenario(
    db: Kysely<DB>,
    accountId: string,
    scenarioId: string,
    options: { inEffectOnly?: boolean; after?: AttachmentPosition | null; limit?: number } = {},
  ): Promise<ScenarioGuardrailRow[]> {
    let query = db
      .selectFrom('scenario_guardrails as sg')
      .innerJoin('guardrails as g', 'g.id', 'sg.guardrail_id')
      .selectAll('g')
      .select([
        'sg.scenario_id',
        'sg.active as attachment_active',
        'sg.position',
        'sg.attached_at',
        'sg.updated_at as attachment_updated_at',
      ])
      .where('sg.account_id', '=', accountId)
      .where('g.account_id', '=', accountId)
      .where('sg.scenario_id', '=', scenarioId);
    if (options.inEffectOnly) query = query.where('g.active', '=', true).where('sg.active', '=', true);
    if (options.after) {
      const { position, attachedAt, guardrailId } = options.after;
      query = query.where(
        sql<boolean>`(sg.position, sg.attached_at, sg.guardrail_id) > (${position}, ${attachedAt}::timestamptz, ${guardrailId}::uuid)`,
      );
    }
    query = query.orderBy('sg.position').orderBy('sg.attached_at').orderBy('sg.guardrail_id');
    if (options.limit !== undefined) query = query.limit(options.limit);
    return query.execute() as Promise<ScenarioGuardrailRow[]>;
  },
};
