import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

export const meetingTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'create_meeting',
    title: 'Create a practice meeting',
    route: 'POST /v1/meetings',
    idempotencyKey: true,
    description:
      'Schedule a practice meeting from a scenario. Returns the meeting id, `meeting_url` and `room_token` (shown only in this answer): the join link to hand to the participant is `<meeting_url>?t=<room_token>`. Set `person_name` to the participant’s name, `note_context` for per-session context, and `idempotency_key` so a retry does not create a second meeting.',
  }),
];
