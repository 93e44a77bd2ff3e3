import type { BoundRoutes } from '../core/module.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import type { ApiKeyService } from './api-keys/service.ts';
import { domainRoutes } from './domains/routes.ts';
import type { DomainService } from './domains/service.ts';
import { draftRoutes } from './drafts/routes.ts';
import type { DraftService } from './drafts/service.ts';
import { eventRoutes } from './events/routes.ts';
import type { EventService } from './events/service.ts';
import { inboxRoutes } from './inboxes/routes.ts';
import type { InboxService } from './inboxes/service.ts';
import { listRoutes } from './lists/routes.ts';
import type { ListService } from './lists/service.ts';
import { messageRoutes } from './messages/routes.ts';
import type { MessageService } from './messages/service.ts';
import { podRoutes } from './pods/routes.ts';
import type { PodService } from './pods/service.ts';
import { searchRoutes } from './search/routes.ts';
import type { SearchService } from './search/service.ts';
import { threadRoutes } from './threads/routes.ts';
import type { ThreadService } from './threads/service.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import type { WebhookService } from './webhooks/service.ts';
import type { MailboxEventHub } from './ws/event-hub.ts';
import { wsRoutes } from './ws/routes.ts';

/** The services the /v0 routes call. */
export interface MailboxServices {
  inboxes: InboxService;
  messages: MessageService;
  threads: ThreadService;
  search: SearchService;
  drafts: DraftService;
  pods: PodService;
  domains: DomainService;
  /** Allow and block lists. */
  lists: ListService;
  /** The mailbox's own scoped `aik_` keys (not the platform's key verifier, `MailboxAdapters.apiKeys`). */
  scopedKeys: ApiKeyService;
  webhooks: WebhookService;
  events: EventService;
  hub: MailboxEventHub;
}

/**
 * Every /v0 route module bound to the services it uses, registered inside the authenticated,
 * rate-limited scope in this order (the OpenAPI document follows it).
 */
export function mailboxRoutes(s: MailboxServices): BoundRoutes[] {
  return [
    (app) => inboxRoutes(app, { inboxes: s.inboxes }),
    (app) => searchRoutes(app, { search: s.search }),
    (app) => messageRoutes(app, { messages: s.messages }),
    (app) => threadRoutes(app, { threads: s.threads }),
    (app) => draftRoutes(app, { drafts: s.drafts }),
    (app) => podRoutes(app, { pods: s.pods }),
    (app) => domainRoutes(app, { domains: s.domains }),
    (app) => listRoutes(app, { lists: s.lists }),
    (app) => apiKeyRoutes(app, { scopedKeys: s.scopedKeys }),
    (app) => webhookRoutes(app, { webhooks: s.webhooks }),
    (app) => eventRoutes(app, { events: s.events }),
    (app) => wsRoutes(app, { inboxes: s.inboxes, hub: s.hub }),
  ];
}
