import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DeliveryQueue } from '../../core/delivery/queue.ts';
import { invalidParam } from '../../core/http/errors.ts';
import { type LookupFn, OutboundError, type OutboundPolicy, vetUrl } from '../../core/outbound/index.ts';
import type { MailboxPrincipal } from '../auth/principal.ts';
import { notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { inboxesRepository, reaches } from '../inboxes/repository.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { MAILBOX_CHANNEL } from './channel.ts';
import { type WebhookRow, type WebhookVisibility, webhooksRepository } from './repository.ts';

export const toWebhook = (row: WebhookRow) => ({
  webhook_id: row.id,
  url: row.url,
  event_types: row.event_types,
  inbox_ids: row.inbox_ids,
  pod_id: row.pod_id,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  client_id: row.client_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const visibilityOf = (principal: MailboxPrincipal): WebhookVisibility => ({
  namespaceId: principal.reach.namespaceId,
  podId: principal.reach.podId,
  inboxIds: principal.reach.inboxIds,
});

export class WebhookService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      secretBox: SecretBox;
      queue: DeliveryQueue;
      pageTokens: PageTokens;
      /** The delivery client's own policy, so what is stored is what delivery would call. */
      outboundPolicy: OutboundPolicy;
      /** DNS for the check (tests inject one); the system resolver otherwise. */
      lookup?: LookupFn;
    },
  ) {}

  /**
   * The URL is vetted as delivery vets it: scheme, no credentials, and every address its host
   * resolves to outside the blocked ranges (private, loopback, link-local, metadata) unless
   * OUTBOUND_ALLOW_CIDRS allows them. A name that does not resolve yet is accepted (DNS may be
   * set up after the webhook); delivery resolves and checks again on every connection.
   */
  private async checkUrl(url: string): Promise<void> {
    try {
      await vetUrl(url, this.deps.outboundPolicy, this.deps.lookup);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (error.code === 'dns_failure') return;
      throw invalidParam('url', `url refused: ${error.message}.`);
    }
  }

  /** A webhook never reaches further than the key that creates it: inbox_ids are narrowed to the key's. */
  async create(
    principal: MailboxPrincipal,
    body: { url: string; event_types: string[]; inbox_ids?: string[]; client_id?: string },
  ) {
    await this.checkUrl(body.url);
    const { db, clock } = this.deps;
    let inboxIds: string[] | null = null;
    if (body.inbox_ids && body.inbox_ids.length > 0) {
      inboxIds = [...new Set(body.inbox_ids.map((id) => id.toLowerCase()))];
      for (const [index, id] of inboxIds.entries()) {
        const inbox = await inboxesRepository.byId(db, id);
        // Out of reach looks exactly like absent: a key cannot learn which addresses exist.
        if (!inbox || !reaches(principal.reach, inbox)) throw notFound('inbox', `inbox_ids[${index}]`);
      }
    } else if (principal.reach.inboxIds !== null) {
      inboxIds = principal.reach.inboxIds;
    }
    if (body.client_id) {
      const existing = await webhooksRepository.byClientId(db, principal.reach.namespaceId, body.client_id);
      if (existing)
        throw invalidParam(
          'client_id',
          'A webhook with this client_id exists; its secret was shown when it was created.',
        );
    }
    const secret = prefixedSecret('whsec_', 24);
    const now = clock.now();
    const row = {
      id: newId('whk'),
      namespace_id: principal.reach.namespaceId,
      pod_id: principal.reach.podId,
      inbox_ids: inboxIds,
      url: body.url,
      event_types: [...new Set(body.event_types)],
      secret_sealed: this.deps.secretBox.seal(secret),
      enabled: true,
      client_id: body.client_id ?? null,
      created_by_key_id: principal.keyId,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
    await webhooksRepository.insert(db, row);
    return { row: row as WebhookRow, secret };
  }

  async get(principal: MailboxPrincipal, id: string): Promise<WebhookRow> {
    const row = await webhooksRepository.get(this.deps.db, visibilityOf(principal), id);
    if (!row) throw notFound('webhook', 'webhook_id');
    return row;
  }

  async list(principal: MailboxPrincipal, query: ListQuery) {
    const page = this.deps.pageTokens.parse(query, 'webhooks', principal.subject);
    const rows = await webhooksRepository.list(this.deps.db, visibilityOf(principal), keyset(page));
    return this.deps.pageTokens.envelope('webhooks', page, rows, byCreation, toWebhook);
  }

  async update(
    principal: MailboxPrincipal,
    id: string,
    body: { url?: string; event_types?: string[]; enabled?: boolean },
  ) {
    const current = await this.get(principal, id);
    // An empty update changes nothing (not even updated_at) and answers the webhook.
    if (body.url === undefined && body.event_types === undefined && body.enabled === undefined)
      return current;
    if (body.url !== undefined) await this.checkUrl(body.url);
    return this.deps.db.transaction().execute(async (trx) => {
      // Whoever enables it authorises it from now on (a revoked creator's webhook can be taken over).
      const enabling = body.enabled === true && !current.enabled;
      const updated = await webhooksRepository.update(trx, current.id, {
        url: body.url,
        event_types: body.event_types ? [...new Set(body.event_types)] : undefined,
        enabled: body.enabled,
        ...(enabling ? { created_by_key_id: principal.keyId, disabled_reason: null } : {}),
        updated_at: this.deps.clock.now(),
      });
      if (!current.enabled && updated.enabled)
        await this.deps.queue.releaseHeld(trx, { channel: MAILBOX_CHANNEL, endpointId: current.id });
      return updated;
    });
  }

  async delete(principal: MailboxPrincipal, id: string): Promise<void> {
    const current = await this.get(principal, id);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.queue.cancelPending(trx, { channel: MAILBOX_CHANNEL, endpointId: current.id });
      await webhooksRepository.delete(trx, current.id);
    });
  }

  async deliveries(principal: MailboxPrincipal, webhookId: string, query: ListQuery) {
    const webhook = await this.get(principal, webhookId);
    const page = this.deps.pageTokens.parse(query, `deliveries:${webhook.id}`, principal.subject);
    const rows = await webhooksRepository.deliveries(this.deps.db, webhook.id, {
      limit: page.limit + 1,
      after: page.after ? { seq: Number(page.after.i) } : undefined,
    });
    const attempts = await webhooksRepository.attemptsFor(
      this.deps.db,
      rows.map((r) => r.id),
    );
    return this.deps.pageTokens.envelope(
      'deliveries',
      page,
      rows,
      (r) => ({ t: r.created_at.toISOString(), i: String(r.seq) }),
      (r) =>
        presentDelivery(
          r,
          attempts.filter((a) => a.delivery_id === r.id),
        ),
    );
  }

  async retry(principal: MailboxPrincipal, deliveryId: string) {
    const delivery = await webhooksRepository.delivery(this.deps.db, deliveryId);
    if (!delivery?.endpoint_id) throw notFound('delivery', 'delivery_id');
    await this.get(principal, delivery.endpoint_id).catch(() => {
      throw notFound('delivery', 'delivery_id');
    });
    const updated = await this.deps.db
      .transaction()
      .execute((trx) => this.deps.queue.redeliver(trx, delivery.id));
    const attempts = await webhooksRepository.attemptsFor(this.deps.db, [delivery.id]);
    return presentDelivery(updated ?? delivery, attempts);
  }
}

type DeliveryRowLike = {
  id: string;
  endpoint_id: string | null;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
};

type AttemptRowLike = {
  attempt_number: number;
  manual: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: string;
  next_retry_at: Date | null;
  created_at: Date;
};

export function presentDelivery(row: DeliveryRowLike, attempts: AttemptRowLike[]) {
  return {
    delivery_id: row.id,
    webhook_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    attempts: attempts.map((a) => ({
      attempt_number: a.attempt_number,
      manual: a.manual,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      outcome: a.outcome,
      next_retry_at: a.next_retry_at?.toISOString() ?? null,
      created_at: a.created_at.toISOString(),
    })),
  };
}
