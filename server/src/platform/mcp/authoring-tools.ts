import { ONE_PAGE, type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

export const scenarioTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_scenarios',
    title: 'List scenarios',
    route: 'GET /v1/scenarios',
    queryDefaults: ONE_PAGE,
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
  routeTool(routes, {
    name: 'create_scenario',
    title: 'Create a scenario',
    route: 'POST /v1/scenarios',
    idempotencyKey: true,
    description:
      'Create a practice scenario: `name`, `type` (interview, roleplay, upskill or brainstorm), the `persona_id` of the AI counterpart (see list_personas), the `prompt` it follows, and `goals` (goal ids, see list_goals) the participant is scored on. Without `welcome_message` one is generated. Returns the full scenario.',
  }),
  routeTool(routes, {
    name: 'update_scenario',
    title: 'Update a scenario',
    route: 'PUT /v1/scenarios/:id',
    description:
      'Change a scenario: only the fields sent change (`goals` replaces the whole list; nested objects merge). Returns the full scenario.',
  }),
  routeTool(routes, {
    name: 'export_scenario',
    title: 'Export a scenario',
    route: 'GET /v1/scenarios/:id/export',
    description:
      'Export a scenario with its persona, goals, guardrails and custom functions as one JSON document without secrets: the portable description of everything the scenario practises. Also readable as the resource understudy://scenarios/{id}/export.',
  }),
];

export const personaTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_personas',
    title: 'List personas',
    route: 'GET /v1/personas',
    queryDefaults: ONE_PAGE,
    description:
      'List the personas (the AI counterparts a scenario casts: name, job title, personality, voice) newest first, one page at a time. Pass `cursor` = `next_cursor` while `has_more` is true.',
  }),
  routeTool(routes, {
    name: 'get_persona',
    title: 'Get a persona',
    route: 'GET /v1/personas/:id',
    description: 'Read one persona: its name, role, background, personality, voice and avatar.',
  }),
];

export const goalTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_goals',
    title: 'List goals',
    route: 'GET /v1/goals',
    queryDefaults: ONE_PAGE,
    description:
      'List goals (what a participant is scored on after a meeting, each with scoring instructions) newest first, one page at a time. Pass `cursor` = `next_cursor` while `has_more` is true.',
  }),
  routeTool(routes, {
    name: 'get_goal',
    title: 'Get a goal',
    route: 'GET /v1/goals/:id',
    description: 'Read one goal: its name, scoring instructions and the ids of the scenarios it scores.',
  }),
  routeTool(routes, {
    name: 'create_goal',
    title: 'Create a goal',
    route: 'POST /v1/goals',
    idempotencyKey: true,
    description:
      'Create a goal: `name` and `instructions` telling the analyst how to score it (e.g. "Score 1-10 on how clearly the candidate explains trade-offs"). `scenario_id` links it to a scenario at once.',
  }),
];

export const guardrailTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_guardrails',
    title: 'List guardrails',
    route: 'GET /v1/guardrails',
    queryDefaults: ONE_PAGE,
    description:
      'List the guardrails of the workspace (rules the AI persona must keep to during a meeting), newest first, one page at a time. Use an id with attach_guardrail.',
  }),
  routeTool(routes, {
    name: 'attach_guardrail',
    title: 'Attach a guardrail to a scenario',
    route: 'POST /v1/scenarios/:scenarioId/guardrails/:id/attach',
    description:
      'Attach guardrail `id` to scenario `scenarioId` (optionally at `position`). Attaching again re-activates it; safe to repeat.',
  }),
  routeTool(routes, {
    name: 'detach_guardrail',
    title: 'Detach a guardrail from a scenario',
    route: 'DELETE /v1/scenarios/:scenarioId/guardrails/:id',
    description:
      'Detach guardrail `id` from scenario `scenarioId`. The guardrail itself stays and can be attached again.',
  }),
];
