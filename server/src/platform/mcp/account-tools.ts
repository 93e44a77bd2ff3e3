import { ONE_PAGE, type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

export const memoryTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'search_memories',
    title: 'Search memories by tag',
    route: 'GET /v1/memories',
    description:
      'The facts the AI persona remembers about a participant across meetings, newest first. `user_memory_tag` picks one container (e.g. `membership:<id>` or your own tag); omitted, every memory of the workspace.',
  }),
  routeTool(routes, {
    name: 'add_memories',
    title: 'Add facts to memory',
    route: 'POST /v1/memories',
    idempotencyKey: true,
    description:
      'Add facts to a memory container (`user_memory_tag`): each entry becomes one fact, multi-line strings one fact per line; facts already held are skipped. The persona reads them at the start of the next meeting that uses the tag.',
  }),
  routeTool(routes, {
    name: 'delete_memory',
    title: 'Delete a memory',
    route: 'DELETE /v1/memories/:id',
    description: 'Delete one memory (fact) for good.',
  }),
];

export const webhookTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_webhook_endpoints',
    title: 'List webhook endpoints',
    route: 'GET /v1/webhooks/endpoints',
    queryDefaults: ONE_PAGE,
    description: 'List the webhook endpoints of the workspace, one page at a time (no secrets).',
  }),
  routeTool(routes, {
    name: 'list_webhook_deliveries',
    title: 'List webhook delivery attempts',
    route: 'GET /v1/webhooks/endpoints/:id/deliveries',
    queryDefaults: ONE_PAGE,
    description:
      'The delivery attempts of webhook endpoint `id`, newest first, one page at a time: event, HTTP status, error and timing. Use a delivery id with redeliver_webhook.',
  }),
  routeTool(routes, {
    name: 'redeliver_webhook',
    title: 'Redeliver a webhook',
    route: 'POST /v1/webhooks/deliveries/:deliveryId/redeliver',
    idempotencyKey: true,
    description: 'Send a delivery again now: same event id, same body, one extra attempt.',
  }),
];
