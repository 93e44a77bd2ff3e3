import { type Selectable, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import type { Executor } from '../db.ts';
import { json } from '../db.ts';
import type { EventScope } from '../events/types.ts';
import type { MailboxTables } from '../tables.ts';
import { MAILBOX_CHANNEL } from './channel.ts';

export type WebhookRow = Selectable<MailboxTables['mailbox_webhooks']>;

/** Which webhooks a principal sees: null namespace = every webhook (admin). */
export interface WebhookVisibility {
  namespaceId: string | null;
  /** Restricted keys see only webhooks whose reach is inside theirs. */
  podId: string | null;
  inboxIds: string[] | null;
}

export const webhooksRepository = {
  async insert(
    db: Executor,
    row: Omit<WebhookRow, 'inbox_ids' | 'event_types'> & {
      inbox_ids: string[] | null;
      event_types: string[];
    },
  ) {
    await db
      .insertInto('mailbox_webhooks')
      .values({
        ...row,
        inbox_ids: row.inbox_ids ? json(row.inbox_ids) : null,
        event_types: json(row.event_types),
      })
      .execute();
  },

  async get(db: Executor, visibility: WebhookVisibility, id: string): Promise<WebhookRow | undefined> {
    return visible(
      db.selectFrom('mailbox_webhooks').selectAll().where('id', '=', id),
      visibility,
    ).executeTakeFirst();
  },

  /** Where a delivery goes: the webhook's url, sealed secret and whether it is enabled. */
  async target(db: Executor, id: string) {
    return db
      .selectFrom('mailbox_webhooks')
      .select(['url', 'secret_sealed', 'enabled'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** The webhook created with this client_id in a namespace (null: the admin's, of no namespace). */
  async byClientId(db: Executor, namespaceId: string | null, clientId: string) {
    return db
      .selectFrom('mailbox_webhooks')
      .selectAll()
      .where('client_id', '=', clientId)
      .where((eb) =>
        namespaceId === null ? eb('namespace_id', 'is', null) : eb('namespace_id', '=', namespaceId),
      )
      .executeTakeFirst();
  },

  async list(db: Executor, visibility: WebhookVisibility, page: PageRequest) {
    const query = visible(db.selectFrom('mailbox_webhooks').selectAll(), visibility);
    return newestFirst(query, page, 'mailbox_webhooks').execute();
  },

  async update(
    db: Executor,
    id: string,
    values: {
      url?: string;
      event_types?: string[];
      enabled?: boolean;
      created_by_key_id?: string | null;
      disabled_reason?: string | null;
      updated_at: Date;
    },
  ) {
    return db
      .updateTable('mailbox_webhooks')
      .set({ ...values, event_types: values.event_types ? json(values.event_types) : undefined })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Disables the webhooks a (revoked) scoped key created, recording why. */
  async disableCreatedBy(db: Executor, keyId: string, reason: string, now: Date): Promise<void> {
    await db
      .updateTable('mailbox_webhooks')
      .set({ enabled: false, disabled_reason: reason, updated_at: now })
      .where('created_by_key_id', '=', keyId)
      .where('enabled', '=', true)
      .execute();
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('mailbox_webhooks').where('id', '=', id).execute();
  },

  /** Webhooks (enabled or paused) subscribed to this event and reaching where it happened. */
  /**
   * The webhooks an event goes to, as a fan-out's receivers (see DeliveryQueue.fanOutInsert),
   * joined with the CTE `after` so there are none when it yielded no row.
   */
  receiversOf(event: EventScope & { event_type: string }, after: string) {
    const pod = event.pod_id ? sql`(w.pod_id is null or w.pod_id = ${event.pod_id})` : sql`w.pod_id is null`;
    const inbox = event.inbox_id
      ? sql`(w.inbox_ids is null or w.inbox_ids ? ${event.inbox_id})`
      : sql`w.inbox_ids is null`;
    return sql<{ endpoint_id: string; tenant_id: string; enabled: boolean }>`
      select w.id as endpoint_id, coalesce(w.namespace_id, '*') as tenant_id, w.enabled
      from mailbox_webhooks as w, ${sql.table(after)}
      where w.event_types ? ${event.event_type}
        and (w.namespace_id is null or w.namespace_id = ${event.namespace_id})
        and ${pod} and ${inbox}`;
  },

  async deliveries(db: Executor, webhookId: string, options: { limit: number; after?: { seq: number } }) {
    let query = db
      .selectFrom('deliveries')
      .selectAll()
      .where('channel', '=', MAILBOX_CHANNEL)
      .where('endpoint_id', '=', webhookId);
    if (options.after) query = query.where('seq', '<', options.after.seq);
    return query.orderBy('seq', 'desc').limit(options.limit).execute();
  },

  async attemptsFor(db: Executor, deliveryIds: string[]) {
    if (deliveryIds.length === 0) return [];
    return db
      .selectFrom('delivery_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('attempt_number')
      .execute();
  },

  async delivery(db: Executor, deliveryId: string) {
    if (!/^[0-9a-f-]{36}$/i.test(deliveryId)) return undefined;
    return db
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('channel', '=', MAILBOX_CHANNEL)
      .executeTakeFirst();
  },
};

function visible<Q extends { where: (...args: any[]) => any }>(query: Q, visibility: WebhookVisibility): Q {
  let q: any = query;
  if (visibility.namespaceId !== null) q = q.where('namespace_id', '=', visibility.namespaceId);
  if (visibility.podId !== null) q = q.where('pod_id', '=', visibility.podId);
  if (visibility.inboxIds !== null) {
    // Only webhooks narrowed to a subset of the key's inboxes.
    q = q
      .where('inbox_ids', 'is not', null)
      .where(sql<boolean>`inbox_ids <@ ${json(visibility.inboxIds)}::jsonb`);
  }
  return q;
}
