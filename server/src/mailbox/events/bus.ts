import type { Database } from '../../core/db/database.ts';
import type { RedisCircuit } from '../../core/redis-circuit.ts';
import { eventsRepository } from './repository.ts';
import type { MailboxEvent } from './types.ts';

export type EventHandler = (event: MailboxEvent) => void;
/** Told the principal subject of a revoked key (its live sockets must close). */
export type RevocationHandler = (subject: string) => void;

/**
 * Carries committed events to every instance's live sockets. Redis pub/sub when REDIS_URL is
 * set, else PostgreSQL LISTEN/NOTIFY (also on embedded PGlite). Live only: a subscriber that is
 * not connected misses events and reads them from GET /v0/inboxes/{id}/events instead.
 */
export interface EventBus {
  /** Called after the events' transaction committed. */
  publish(events: MailboxEvent[]): Promise<void>;
  /** Tells every instance that the key of this principal subject was revoked (after commit). */
  publishRevocation(subject: string): Promise<void>;
  subscribe(handler: EventHandler, onRevoked?: RevocationHandler): Promise<() => Promise<void>>;
}

export const EVENT_CHANNEL = 'mailbox_events';
/** NOTIFY payloads are limited to 8000 bytes; bigger events travel by id and are read back. */
const NOTIFY_LIMIT = 7_500;

interface Wire {
  ref?: string;
  event?: Omit<MailboxEvent, 'created_at'> & { created_at: string };
  /** Several events in one notification. */
  batch?: Wire[];
  /** A revoked key's principal subject. */
  revoked?: string;
}

function encode(event: MailboxEvent): string {
  return JSON.stringify({ event: { ...event, created_at: event.created_at.toISOString() } } satisfies Wire);
}

function decode(wire: Wire): MailboxEvent | null {
  if (!wire.event) return null;
  return { ...wire.event, created_at: new Date(wire.event.created_at) };
}

const revocation = (subject: string) => JSON.stringify({ revoked: subject } satisfies Wire);

async function deliver(
  database: Database,
  raw: string,
  handler: EventHandler,
  onRevoked?: RevocationHandler,
): Promise<void> {
  const wire = JSON.parse(raw) as Wire;
  if (wire.revoked !== undefined) return onRevoked?.(wire.revoked);
  for (const item of wire.batch ?? [wire]) {
    const event = item.ref ? await eventsRepository.get(database.db, item.ref) : decode(item);
    if (event) handler(event);
  }
}

/**
 * NOTIFY takes a database-wide lock at commit, so notifying transactions commit one at a time.
 * Events are therefore not notified from the transactions that store mail: after commit they are
 * queued here and one flusher per process sends whatever accumulated, packed into as few
 * notifications as fit, in a single statement.
 */
export class PostgresEventBus implements EventBus {
  private pending: Array<{ event: MailboxEvent; done: () => void }> = [];
  private flushing = false;

  constructor(
    private readonly database: Database,
    private readonly channel = EVENT_CHANNEL,
  ) {}

  publish(events: MailboxEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    const sent = Promise.all(
      events.map((event) => new Promise<void>((done) => this.pending.push({ event, done }))),
    );
    if (!this.flushing) void this.flush();
    return sent.then(() => {});
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, 200);
        try {
          const messages = pack(batch.map((item) => item.event));
          await eventsRepository.notify(this.database.db, this.channel, messages);
        } catch {
          // Live delivery is best effort: clients catch up from GET /v0/inboxes/{id}/events.
        }
        for (const item of batch) item.done();
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Rare and urgent: sent at once, not through the flusher's batches. */
  async publishRevocation(subject: string): Promise<void> {
    await eventsRepository.notify(this.database.db, this.channel, [revocation(subject)]);
  }

  subscribe(handler: EventHandler, onRevoked?: RevocationHandler): Promise<() => Promise<void>> {
    return this.database.listen(this.channel, (payload) => {
      void deliver(this.database, payload, handler, onRevoked).catch(() => {});
    });
  }
}

/** Packs events into notification payloads under the NOTIFY size limit (large ones by reference). */
function pack(events: MailboxEvent[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const event of events) {
    let item = encode(event);
    if (Buffer.byteLength(item) > NOTIFY_LIMIT - 20)
      item = JSON.stringify({ ref: event.event_id } satisfies Wire);
    const length = Buffer.byteLength(item) + 1;
    if (current.length > 0 && size + length > NOTIFY_LIMIT - 20) {
      out.push(`{"batch":[${current.join(',')}]}`);
      current = [];
      size = 0;
    }
    current.push(item);
    size += length;
  }
  if (current.length > 0) out.push(`{"batch":[${current.join(',')}]}`);
  return out;
}

/**
 * Redis pub/sub behind the shared circuit. While Redis is unreachable, events reach this
 * instance's own sockets directly (other instances' clients catch up from the events list), and
 * publishing never waits on Redis. Key revocations go through PostgreSQL (publishRevocation).
 */
export class RedisEventBus implements EventBus {
  private readonly local = new Set<{ handler: EventHandler; onRevoked?: RevocationHandler }>();

  /** The circuit's connection publishes; a subscribing connection is duplicated from it. */
  constructor(
    private readonly redis: RedisCircuit,
    private readonly database: Database,
    private readonly channel = EVENT_CHANNEL,
  ) {}

  async publish(events: MailboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.redis.run(
      async (client) => {
        if (events.length === 1) {
          await client.publish(this.channel, encode(events[0]!));
          return;
        }
        const pipeline = client.pipeline();
        for (const event of events) pipeline.publish(this.channel, encode(event));
        const results = await pipeline.exec();
        const failed = results?.find(([error]) => error);
        if (failed) throw failed[0];
      },
      async () => {
        for (const { handler } of this.local) for (const event of events) handler(event);
      },
    );
  }

  /**
   * Through PostgreSQL's NOTIFY, not Redis: a revoked key's sockets must close on every instance
   * while Redis is down too, and revocations are rare enough for the database's channel.
   */
  async publishRevocation(subject: string): Promise<void> {
    await eventsRepository.notify(this.database.db, this.channel, [revocation(subject)]);
  }

  async subscribe(handler: EventHandler, onRevoked?: RevocationHandler): Promise<() => Promise<void>> {
    const entry = { handler, onRevoked };
    this.local.add(entry);
    // Only revocations travel on the database's channel while events go through Redis.
    const unlisten = await this.database.listen(this.channel, (payload) => {
      const wire = JSON.parse(payload) as Wire;
      if (wire.revoked !== undefined) onRevoked?.(wire.revoked);
    });
    // Unlike the shared connection, the subscriber waits for Redis: its SUBSCRIBE is queued while
    // disconnected and renewed by ioredis after every reconnect.
    const subscriber = this.redis.client.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    });
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) void deliver(this.database, message, handler, onRevoked).catch(() => {});
    });
    const subscribed = subscriber.subscribe(this.channel).catch(() => {});
    // A start-up during an outage does not wait for Redis; the local fallback serves meanwhile.
    if (this.redis.up) await subscribed;
    return async () => {
      this.local.delete(entry);
      await unlisten();
      // Queued while disconnected, an UNSUBSCRIBE would wait for Redis: closing is enough then.
      if (subscriber.status === 'ready') await subscriber.unsubscribe(this.channel).catch(() => {});
      subscriber.disconnect();
    };
  }
}

/** Within one process only: for tests and tools that run without a shared bus. */
export class LocalEventBus implements EventBus {
  private readonly handlers = new Set<EventHandler>();
  private readonly revocationHandlers = new Set<RevocationHandler>();
  async publish(events: MailboxEvent[]): Promise<void> {
    for (const event of events) for (const handler of this.handlers) handler(event);
  }
  async publishRevocation(subject: string): Promise<void> {
    for (const handler of this.revocationHandlers) handler(subject);
  }
  async subscribe(handler: EventHandler, onRevoked?: RevocationHandler): Promise<() => Promise<void>> {
    this.handlers.add(handler);
    if (onRevoked) this.revocationHandlers.add(onRevoked);
    return async () => {
      this.handlers.delete(handler);
      if (onRevoked) this.revocationHandlers.delete(onRevoked);
    };
  }
}
