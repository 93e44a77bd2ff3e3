import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';
import { ALL_EVENTS_WILDCARD } from './catalog.ts';

export const platformEventRepository = {
  async insert(db: Kysely<DB>, values: Insertable<DB['platform_events']>): Promise<void> {
    await db.insertInto('platform_events').values(values).execute();
  },

  /**
   * The account's webhook endpoints subscribed to `event` (or to every event), as a fan-out's
   * receivers (see DeliveryQueue.fanOutInsert).
   */
  subscribedEndpoints(
    accountId: string,
    event: string,
  ): RawBuilder<{ endpoint_id: string; tenant_id: string; enabled: boolean }> {
    return sql`
          select id::text as endpoint_id, ${accountId}::text as tenant_id, enabled from webhook_endpoints
          where account_id = ${accountId}
            and subscribed_events ?| array[${event}, ${ALL_EVENTS_WILDCARD}]::text[]`;
  },

  /** What an attempt needs of the endpoint a delivery goes to, within the delivery's account. */
  findDeliveryTarget(db: Kysely<DB>, endpointId: string, accountId: string) {
    return db
      .selectFrom('webhook_endpoints')
      .select([
        'url',
        'enabled',
        'signing_secret_sealed',
        'previous_secret_sealed',
        'previous_secret_expires_at',
      ])
      .where('id', '=', endpointId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  },
};

/** The event log as the API reads it: the workspace's events, newest first. */
export const eventLogRepository = {
  list(db: Kysely<DB>, accountId: string, filters: { meetingId?: string; type?: string }, page: PageRequest) {
    let query = db
      .selectFrom('platform_events')
      .select(['id', 'event', 'data', 'created_at'])
      .where('account_id', '=', accountId);
    if (filters.meetingId) query = query.where(sql<string>`data ->> 'meeting_id'`, '=', filters.meetingId);
    if (filters.type) query = query.where('event', '=', filters.type);
    return newestFirst(query, page, 'platform_events').execute();
  },
};
