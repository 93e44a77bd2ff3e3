import type { WebSocket } from 'ws';
import { sendBounded } from '../../core/http/ws-backlog.ts';
import type { MailboxPrincipal } from '../auth/principal.ts';
import type { EventBus } from '../events/bus.ts';
import type { MailboxEvent } from '../events/types.ts';

export interface LiveSubscription {
  /** null: every inbox the principal reaches. */
  inboxIds: Set<string> | null;
  /** null: every event type. */
  eventTypes: Set<string> | null;
}

export interface LiveClient {
  socket: WebSocket;
  principal: MailboxPrincipal;
  subscription: LiveSubscription | null;
}

/** True when the principal may see this event at all (before the client's own filters). */
export function principalSees(principal: MailboxPrincipal, event: MailboxEvent): boolean {
  const { reach } = principal;
  if (reach.namespaceId !== null && event.namespace_id !== reach.namespaceId) return false;
  if (event.inbox_id === null)
    return reach.inboxIds === null && (reach.podId === null || reach.podId === event.pod_id);
  if (reach.podId !== null && event.pod_id !== reach.podId) return false;
  if (reach.inboxIds !== null && !reach.inboxIds.includes(event.inbox_id)) return false;
  return true;
}

/** Close code and reason of a socket whose key was revoked (docs/mailbox.md, "WebSocket"). */
export const WS_KEY_REVOKED = { code: 4401, reason: 'api key revoked' } as const;
/**
 * How long a revocation is remembered: a socket whose key was checked just before the revocation
 * and attaches just after it was announced is closed too. Attaching takes milliseconds.
 */
const REVOCATION_MEMORY_MS = 60_000;

/**
 * The sockets of this instance. One bus subscription per process feeds them all; each event is
 * serialised once and sent to every socket whose principal may see it and whose subscription asks
 * for it. Nothing is buffered for absent clients: live only.
 */
export class MailboxEventHub {
  private readonly clients = new Set<LiveClient>();
  /** Revoked subjects, with when this instance heard of them. */
  private readonly revoked = new Map<string, number>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly bus: EventBus,
    /** A socket whose unsent frames pass this many bytes is closed (WS_MAX_BUFFERED_BYTES). */
    readonly maxBufferedBytes: number = 4 * 1024 * 1024,
  ) {}

  async start(): Promise<void> {
    if (!this.unsubscribe)
      this.unsubscribe = await this.bus.subscribe(
        (event) => this.dispatch(event),
        (subject) => this.closeRevoked(subject),
      );
  }

  /** Closes at once every socket opened with the revoked key (4401 "api key revoked"). */
  closeRevoked(subject: string): void {
    const now = Date.now();
    for (const [known, at] of this.revoked) if (at < now - REVOCATION_MEMORY_MS) this.revoked.delete(known);
    this.revoked.set(subject, now);
    for (const client of this.clients) {
      if (client.principal.subject !== subject) continue;
      this.clients.delete(client);
      client.socket.close(WS_KEY_REVOKED.code, WS_KEY_REVOKED.reason);
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    for (const client of this.clients) client.socket.close(1001, 'server shutting down');
    this.clients.clear();
  }

  add(client: LiveClient): void {
    const revokedAt = this.revoked.get(client.principal.subject);
    if (revokedAt !== undefined && revokedAt >= Date.now() - REVOCATION_MEMORY_MS) {
      client.socket.close(WS_KEY_REVOKED.code, WS_KEY_REVOKED.reason);
      return;
    }
    this.clients.add(client);
  }

  remove(client: LiveClient): void {
    this.clients.delete(client);
  }

  get size(): number {
    return this.clients.size;
  }

  dispatch(event: MailboxEvent): void {
    let frame: string | null = null;
    for (const client of this.clients) {
      const sub = client.subscription;
      if (!sub || client.socket.readyState !== client.socket.OPEN) continue;
      if (!principalSees(client.principal, event)) continue;
      if (sub.eventTypes && !sub.eventTypes.has(event.event_type)) continue;
      if (sub.inboxIds && (event.inbox_id === null || !sub.inboxIds.has(event.inbox_id))) continue;
      frame ??= JSON.stringify(event.payload);
      sendBounded(client.socket, frame, this.maxBufferedBytes);
    }
  }
}
