import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';
import { PAGE } from './inbox-tools.ts';

const DIRECTION =
  '`direction` is `receive` (the sender of incoming mail; default) or `send` (recipients of outgoing mail).';

/**
 * An inbox's own block list, and a look at its allow list. Allow lists and the pod and workspace
 * levels stay REST-only: they are the operator's guard rails around an agent, not something it
 * should widen in conversation (docs/mailbox.md, "MCP").
 */
export const listTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'block_address',
    title: 'Block an address or domain',
    route: 'POST /v0/inboxes/:inbox_id/block-list',
    description: `Block an address (\`spam@example.com\`) or a whole domain (\`example.com\`, subdomains included) for this inbox. ${DIRECTION} Blocked incoming mail is still kept, labelled \`blocked\` and hidden from normal lists; a send to a blocked recipient is refused with \`recipient_not_allowed\`. Returns the entry; keep its \`entry_id\` to unblock.`,
  }),
  routeTool(routes, {
    name: 'list_blocked',
    title: 'List blocked addresses',
    route: 'GET /v0/inboxes/:inbox_id/block-list',
    queryDefaults: PAGE,
    description: `List this inbox's own block list entries, newest first (the pod and workspace may block more). ${DIRECTION} Omit \`direction\` for both. When \`next_page_token\` is not null, call again with \`page_token\` set to it.`,
  }),
  routeTool(routes, {
    name: 'unblock_address',
    title: 'Unblock',
    route: 'DELETE /v0/inboxes/:inbox_id/block-list/:entry_id',
    description: "Remove an entry (by `entry_id`, from list_blocked) from this inbox's block list.",
  }),
  routeTool(routes, {
    name: 'list_allowed',
    title: 'List allowed addresses',
    route: 'GET /v0/inboxes/:inbox_id/allow-list',
    queryDefaults: PAGE,
    description: `List this inbox's allow list entries, newest first. When an inbox has allow entries for a direction, only those addresses and domains may write to it (\`receive\`) or be written to (\`send\`); a send to anyone else fails with \`recipient_not_allowed\`, which names the list that refused. ${DIRECTION} When \`next_page_token\` is not null, call again with \`page_token\` set to it.`,
  }),
];
