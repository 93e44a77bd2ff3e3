import { ONE_PAGE, type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

export const meetingTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'create_meeting',
    title: 'Create a practice meeting',
    route: 'POST /v1/meetings',
    idempotencyKey: true,
    description:
      'Schedule a practice meeting from a scenario. Returns the meeting id, `meeting_url` and `room_token` (shown only in this answer): `meeting_url` already carries the token and is the join link to hand to the participant as it is. Set `person_name` to the participant’s name, `note_context` for per-session context, and `idempotency_key` so a retry does not create a second meeting.',
  }),
  routeTool(routes, {
    name: 'get_meeting',
    title: 'Get a meeting',
    route: 'GET /v1/meetings/:id',
    description:
      'Read a meeting: status, its scenario (persona, goals), participants, the sentenced transcript and, once completed, the analysis.',
  }),
  routeTool(routes, {
    name: 'list_meetings',
    title: 'List meetings of a scenario',
    route: 'GET /v1/scenarios/membership/:id/meetings',
    queryDefaults: ONE_PAGE,
    description:
      'List the meetings of scenario `id`, newest first, one page at a time. Pass `cursor` = `next_cursor` while `has_more` is true.',
  }),
  routeTool(routes, {
    name: 'end_meeting',
    title: 'End a meeting',
    route: 'PUT /v1/meetings/:id/end',
    description:
      'End a running meeting now: the room is told and closed, then the analysis runs. Ending an ended meeting changes nothing (`already_ended: true`).',
  }),
  routeTool(routes, {
    name: 'get_meeting_analysis',
    title: 'Get a meeting’s analysis',
    route: 'GET /v1/analyses/meeting/:meetingId',
    description:
      'The analysis of a meeting: the participant’s score on each goal with the reasoning, and the summary. Fails with resource_not_found until the first analysis has completed (after the meeting ends).',
  }),
  routeTool(routes, {
    name: 'rerun_analysis',
    title: 'Run a meeting’s analysis again',
    route: 'POST /v1/analyses/trigger/:meetingId',
    idempotencyKey: true,
    description:
      'Run the analysis of an ended meeting again (e.g. after changing the goals); the new result replaces the old one. Answers at once; read it later with get_meeting_analysis. Fails with resource_conflict while a run is pending or before the transcript is complete.',
  }),
  routeTool(routes, {
    name: 'get_meeting_transcript',
    title: 'Get a meeting’s transcript',
    route: 'GET /v1/transcripts/meeting/:meetingId',
    description: 'The transcript of a meeting: full text, status and language.',
  }),
];
