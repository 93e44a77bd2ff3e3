import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

const PAGE = { limit: 25 };

export const scenarioTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_scenarios',
    title: 'List scenarios',
    route: 'GET /v1/scenarios',
    queryDefaults: PAGE,
    description:
      'List the practice scenarios of the workspace, newest first, one page at a time (default 25, `limit` up to 100). Each item has the scenario id, name, type and persona. When `has_more` is true, call again with `cursor` set to the returned `next_cursor`. Use a scenario id with get_scenario or create_meeting.',
  }),
  routeTool(routes, {
    name: 'get_scenario',
    title: 'Get a scenario',
    route: 'GET /v1/scenarios/:id',
    description:
      'Read one scenario in full: its prompt (the script the AI persona follows), the persona, the goals the participant is scored on, guardrails, custom functions, meeting controls and session options.',
  }),
];
