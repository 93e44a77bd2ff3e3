import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { PLATFORM_WEBHOOK_CHANNEL } from '../events/webhook-profile.ts';

export type WebhookEndpointRow = Selectable<DB['webhook_endpoints']>;

/** SQL for webhook endpoints and their deliveries; every query is scoped to one account. */
export const webhookRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['webhook_endpoints']>) {
    return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
  },

  list(db: Kysely<DB>, accountId: string, page: PageRequest | null) {
    return newestFirst(
      db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId),
      page,
      'webhook_endpoints',
    ).execute();
  },

  find(db: Kysely<DB>, accountId: string, id: string, options: { forUpdate?: boolean } = {}) {
    let query = db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  update(db: Kysely<DB>, accountId: string, id: string, values: Updateable<DB['webhook_endpoints']>) {
    return db
      .updateTable('webhook_endpoints')
      .set(values)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  delete(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .deleteFrom('webhook_endpoints')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  },

  /** The attempt log of one endpoint, newest first, with the delivery each attempt belongs to. */
  listAttempts(db: Kysely<DB>, endpointId: string, page: PageRequest) {
    return newestFirst(
      db
        .selectFrom('delivery_attempts')
        .innerJoin('deliveries', 'deliveries.id', 'delivery_attempts.delivery_id')
        .select([
          'delivery_attempts.id',
          'delivery_attempts.delivery_id',
          'delivery_attempts.attempt_number',
          'delivery_attempts.manual',
          'delivery_attempts.url',
          'delivery_attempts.status_code',
          'delivery_attempts.duration_ms',
          'delivery_attempts.error',
          'delivery_attempts.response_excerpt',
          'delivery_attempts.outcome',
          'delivery_attempts.next_retry_at',
          'delivery_attempts.created_at',
          'deliveries.event_id',
          'deliveries.event_type',
          'deliveries.status as delivery_status',
        ])
        .where('delivery_attempts.channel', '=', PLATFORM_WEBHOOK_CHANNEL)
        .where('delivery_attempts.endpoint_id', '=', endpointId),
      page,
      'delivery_attempts',
    ).execute();
  },

  findDelivery(db: Kysely<DB>, accountId: string, deliveryId: string) {
    return db
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('channel', '=', PLATFORM_WEBHOOK_CHANNEL)
      .where('tenant_id', '=', accountId)
      .executeTakeFirst();
  },
};
