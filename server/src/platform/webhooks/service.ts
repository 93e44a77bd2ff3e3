import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { DeliveryQueue, type DeliveryRow } from '../../core/delivery/queue.ts';
import { AppError } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import { type PageQuery, type PageRequest, type Paginator, positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { OutboundPolicy } from '../../core/outbound/address-policy.ts';
import { ALL_EVENTS_WILDCARD } from '../events/catalog.ts';
import { PLATFORM_WEBHOOK_CHANNEL } from '../events/webhook-profile.ts';
import { webhookRepository as repo, type WebhookEndpointRow } from './repository.ts';
import { assertAcceptableWebhookUrl } from './url-rules.ts';

/** How long the previous secret keeps signing after a rotation (spec: 24 hours). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const LIST = 'webhook_endpoints';

export interface WebhookServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  paginator: Paginator;
  /** The outbound policy deliveries use: URLs are checked against it when registered. */
  outboundPolicy: OutboundPolicy;
}

export interface EndpointInput {
  url?: string;
  description?: string;
  subscribed_events?: string[];
  enabled?: boolean;
}

type AttemptRow = Awaited<ReturnType<typeof repo.listAttempts>>[number];

/** Webhook endpoints of an account: registration, pause/resume, rotation, the log and replays. */
export class WebhookEndpointService {
  private readonly queue: DeliveryQueue;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.queue = new DeliveryQueue(deps.clock);
  }

  render(row: WebhookEndpointRow) {
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      subscribed_events: row.subscribed_events,
      enabled: row.enabled,
      previous_secret_expires_at: this.previousSecretExpiry(row)?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  async create(principal: Principal, input: EndpointInput & { url: string }) {
    const url = assertAcceptableWebhookUrl(input.url, this.deps.outboundPolicy);
    const secret = newSigningSecret();
    const now = this.deps.clock.now();
    const row = await repo.insert(this.deps.db, {
      id: randomUUID(),
      account_id: principal.accountId,
      url,
      description: input.description ?? '',
      signing_secret_sealed: this.deps.secretBox.seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      subscribed_events: JSON.stringify(normaliseEvents(input.subscribed_events ?? [ALL_EVENTS_WILDCARD])),
      enabled: input.enabled ?? true,
      created_at: now,
      updated_at: now,
    });
    return { ...this.render(row), signing_secret: secret };
  }

  async list(principal: Principal, page: PageRequest | null) {
    const rows = await repo.list(this.deps.db, principal.accountId, page);
    if (!page) return rows.map((row) => this.render(row));
    return this.deps.paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) =>
      this.render(row),
    );
  }

  paginate(query: PageQuery, principal: Principal) {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  async get(principal: Principal, id: string) {
    return this.render(await this.find(this.deps.db, principal, id));
  }

  /** Re-enabling releases every delivery held while the endpoint was paused, in the same transaction. */
  async update(principal: Principal, id: string, input: EndpointInput) {
    const url =
      input.url === undefined ? undefined : assertAcceptableWebhookUrl(input.url, this.deps.outboundPolicy);
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await this.find(tx, principal, id, { forUpdate: true });
      const row = await repo.update(tx, principal.accountId, current.id, {
        url,
        description: input.description,
        subscribed_events:
          input.subscribed_events === undefined
            ? undefined
            : JSON.stringify(normaliseEvents(input.subscribed_events)),
        enabled: input.enabled,
        updated_at: this.deps.clock.now(),
      });
      if (!row) throw notFound();
      if (!current.enabled && row.enabled) {
        await this.queue.releaseHeld(tx, { channel: PLATFORM_WEBHOOK_CHANNEL, endpointId: row.id });
      }
      return this.render(row);
    });
  }

  /** Deleting cancels what was still to be delivered; the log of past attempts is kept. */
  async delete(principal: Principal, id: string) {
    await this.deps.db.transaction().execute(async (tx) => {
      const deleted = await repo.delete(tx, principal.accountId, parseUuid(id, 'id'));
      if (!deleted) throw notFound();
      await this.queue.cancelPending(tx, { channel: PLATFORM_WEBHOOK_CHANNEL, endpointId: deleted.id });
    });
  }

  /**
   * A new secret signs from now on; the one it replaces keeps signing beside it for 24 hours.
   * Rotating again within those hours drops the oldest: at most two secrets are ever live.
   */
  async rotateSecret(principal: Principal, id: string) {
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await this.find(tx, principal, id, { forUpdate: true });
      const secret = newSigningSecret();
      const now = this.deps.clock.now();
      const row = await repo.update(tx, principal.accountId, current.id, {
        signing_secret_sealed: this.deps.secretBox.seal(secret),
        previous_secret_sealed: current.signing_secret_sealed,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updated_at: now,
      });
      if (!row) throw notFound();
      return { ...this.render(row), signing_secret: secret };
    });
  }

  /** Always paginated (default 25): an attempt log grows without bound. */
  async listAttempts(principal: Principal, id: string, query: PageQuery) {
    const endpoint = await this.find(this.deps.db, principal, id);
    const list = `webhook_deliveries:${endpoint.id}`;
    const page = this.deps.paginator.parse(query, list, principal.accountId) ?? { limit: 25, after: null };
    const rows = await repo.listAttempts(this.deps.db, endpoint.id, page);
    return this.deps.paginator.page(rows, page, list, principal.accountId, positionOf, renderAttempt);
  }

  async getDelivery(principal: Principal, deliveryId: string) {
    const found = await repo.findDelivery(
      this.deps.db,
      principal.accountId,
      parseUuid(deliveryId, 'deliveryId'),
    );
    if (!found) throw notFound('delivery', 'deliveryId');
    return { ...renderDelivery(found), payload: parsePayload(found.payload) };
  }

  async redeliver(principal: Principal, deliveryId: string) {
    const id = parseUuid(deliveryId, 'deliveryId');
    const delivery = await this.deps.db.transaction().execute(async (tx) => {
      const found = await repo.findDelivery(tx, principal.accountId, id);
      if (!found) throw notFound('delivery', 'deliveryId');
      return this.queue.redeliver(tx, found.id);
    });
    if (!delivery) throw notFound('delivery', 'deliveryId');
    return renderDelivery(delivery);
  }

  private async find(
    db: Kysely<DB>,
    principal: Principal,
    id: string,
    options: { forUpdate?: boolean } = {},
  ) {
    const row = await repo.find(db, principal.accountId, parseUuid(id, 'id'), options);
    if (!row) throw notFound();
    return row;
  }

  private previousSecretExpiry(row: WebhookEndpointRow): Date | null {
    const expires = row.previous_secret_expires_at;
    return row.previous_secret_sealed && expires && expires > this.deps.clock.now() ? expires : null;
  }
}

export function newSigningSecret(): string {
  return prefixedSecret('whsec_', 24);
}

/** `*` subsumes everything else; duplicates are dropped; order is kept. */
function normaliseEvents(events: string[]): string[] {
  return events.includes(ALL_EVENTS_WILDCARD) ? [ALL_EVENTS_WILDCARD] : [...new Set(events)];
}

function renderAttempt(row: AttemptRow) {
  return {
    id: row.id,
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    event: row.event_type,
    attempt_number: row.attempt_number,
    trigger: row.manual ? ('manual' as const) : ('automatic' as const),
    url: row.url,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    response_excerpt: row.response_excerpt,
    outcome: row.outcome as 'succeeded' | 'retry_scheduled' | 'failed' | 'dead',
    next_retry_at: row.next_retry_at?.toISOString() ?? null,
    delivery_status: row.delivery_status,
    created_at: row.created_at.toISOString(),
  };
}

function renderDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id ?? '',
    event_id: row.event_id,
    event: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The stored body is the JSON text that was signed and sent; anything else is shown as text. */
function parsePayload(payload: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(payload);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { body: payload };
  } catch {
    return { body: payload };
  }
}

function parseUuid(id: string, param: string): string {
  if (!isUuid(id)) throw notFound(param === 'id' ? 'webhook endpoint' : 'delivery', param);
  return id.toLowerCase();
}

const notFound = (resource = 'webhook endpoint', param = 'id') =>
  new AppError('resource_not_found', `No such ${resource}.`, { param });
