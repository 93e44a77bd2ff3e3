import type { AppInstance } from '../core/http/types.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { blockListRoutes } from './block-list/routes.ts';
import { domainRoutes } from './domains/routes.ts';
import { draftRoutes } from './drafts/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { inboxRoutes } from './inboxes/routes.ts';
import { messageRoutes } from './messages/routes.ts';
import { podRoutes } from './pods/routes.ts';
import { threadRoutes } from './threads/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import type { MailboxDeps } from './wiring.ts';
import { wsRoutes } from './ws/routes.ts';

/** Every /v0 route, inside the authenticated, rate-limited scope. */
export async function registerMailboxRoutes(app: AppInstance, deps: MailboxDeps): Promise<void> {
  for (const routes of [
    inboxRoutes,
    messageRoutes,
    threadRoutes,
    draftRoutes,
    podRoutes,
    domainRoutes,
    blockListRoutes,
    apiKeyRoutes,
    webhookRoutes,
    eventRoutes,
    wsRoutes,
  ]) {
    routes(app, deps);
  }
}
