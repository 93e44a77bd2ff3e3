import type { WebSocket } from 'ws';
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

/**
 * The sockets of this instance. One bus subscription per process feeds them all; each event is
 * serialised once and sent to every socket whose principal may see it and whose subscription asks
 * for it. Nothing is buffered for absent clients: live only.
 */
export class MailboxEventHub {
  private readonly clients = new Set<LiveClient>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly bus: EventBus) {}

  async start(): Promise<void> {
    if (!this.unsubscribe) this.unsubscribe = await this.bus.subscribe((event) => this.dispatch(event));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    for (const client of this.clients) client.socket.close(1001, 'server shutting down');
    this.clients.clear();
  }

  add(client: LiveClient): void {
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
      client.socket.send(frame);
    }
  }
}
