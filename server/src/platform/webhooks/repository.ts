import type { Insertable, Kysely, Selectable } from 'kysely';
import { accountScoped } from '../../core/db/account-scoped.ts';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { PLATFORM_WEBHOOK_CHANNEL } from '../events/webhook-profile.ts';

export type WebhookEndpointRow = Selectable<DB['webhook_endpoints']>;

const endpoints = accountScoped('webhook_endpoints');

/** SQL for webhook endpoints and their deliveries; every query is scoped to one account. */
export const webhookRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['webhook_endpoints']>) {
    return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
  },

  list: endpoints.list,

  find: endpoints.find,

  update: endpoints.update,

  delete: endpoints.delete,

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
