import type { AnyFastify } from '../../core/http/any-fastify.ts';
import { registerMcpEndpoint } from '../../core/mcp/endpoint.ts';
import type { RouteCatalog } from '../../core/mcp/route-tool.ts';
import type { MailboxCredentialResolver } from '../auth/resolver.ts';
import { inboxTools } from './inbox-tools.ts';
import { listTools } from './list-tools.ts';
import { messageTools } from './message-tools.ts';
import { mailboxResources } from './resources.ts';
import { searchTools } from './search-tools.ts';

const INSTRUCTIONS =
  'Understudy Mailbox gives agents real email inboxes. An inbox is identified by its address (`inbox_id`); mail is grouped in threads; messages are identified by their Message-ID. Read with list_threads / get_thread (or list_messages / get_message), find mail with search_messages / search_threads (or the same filters on the lists), tidy up with delete_message / delete_thread (to the trash; `permanent` deletes for good), answer with reply_to_message, start a conversation with send_message, or prepare mail for review with create_draft and send it later with send_draft. Lists are paginated: pass `page_token` = the previous `next_page_token`. Errors carry the REST API’s `error.code` (e.g. `not_found` for an inbox this key cannot reach).';

/**
 * The mailbox's MCP server at `/mcp`: its tools are the /v0 routes, called with the caller's own
 * key, so `svc_` and `aik_` keys see exactly the inboxes they see over REST, under the same rate
 * limit. `routes` must have collected the /v0 routes (RouteCatalog.collect before they register).
 */
export function registerMailboxMcp(
  app: AnyFastify,
  options: {
    routes: RouteCatalog;
    resolver: MailboxCredentialResolver;
    publicUrl: string;
    version: string;
    /** The message-sized body limit: send_message and create_draft carry attachments. */
    bodyLimit: number;
  },
): void {
  const { routes, resolver } = options;
  registerMcpEndpoint(app, {
    serverName: 'understudy-mailbox',
    serverVersion: options.version,
    instructions: INSTRUCTIONS,
    publicUrl: options.publicUrl,
    realm: 'understudy-mailbox',
    bodyLimit: options.bodyLimit,
    // The same verifier as /v0: the admin key, `aik_` scoped keys, platform `svc_` keys.
    authenticate: (token) => resolver.resolve(token),
    tools: [...inboxTools(routes), ...messageTools(routes), ...searchTools(routes), ...listTools(routes)],
    resources: mailboxResources,
    prompts: [],
  });
}
