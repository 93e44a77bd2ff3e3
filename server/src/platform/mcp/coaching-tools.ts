import { type RouteCatalog, routeTool } from '../../core/mcp/route-tool.ts';
import type { McpTool } from '../../core/mcp/tool.ts';

/** What a coach's assistant does: find people, assign practice, chase what is overdue, read progress. */
export const coachingTools = (routes: RouteCatalog): McpTool[] => [
  routeTool(routes, {
    name: 'list_people',
    title: 'List people',
    route: 'GET /v1/people',
    description:
      'The participants of the workspace (name, e-mail, external id), newest first, one page at a time; `q` searches names and addresses. Use their `id` to assign practice or read progress.',
  }),
  routeTool(routes, {
    name: 'get_person_progress',
    title: 'Read a participant’s progress',
    route: 'GET /v1/people/:person_id/progress',
    description:
      'A participant’s practice over time: every meeting with its scenario, each goal’s score out of its range and the feedback, and one score series per goal (oldest first).',
  }),
  routeTool(routes, {
    name: 'assign_practice',
    title: 'Assign practice',
    route: 'POST /v1/assignments',
    idempotencyKey: true,
    description:
      'Assign a scenario to people (`person_ids`, from list_people) or whole `groups` (their `groups`) with an optional `due_at` (RFC 3339), `max_attempts` (1–20, default 1) and a `note` for them. Each person gets a personal practice link (`people[].practice_url`, no sign-in), e-mailed to them when the server has SMTP configured. Set `idempotency_key` so a retry does not assign twice.',
  }),
  routeTool(routes, {
    name: 'list_assignments',
    title: 'List assignments',
    route: 'GET /v1/assignments',
    description:
      'Assignments, newest first, each with every person’s status (`not_started`, `in_progress`, `done`, `overdue`), attempts and the meeting that completed it. `status: "overdue"` lists only those where someone is overdue (then read `people[].status`); `person_id` only that person’s.',
  }),
  routeTool(routes, {
    name: 'get_meeting_report',
    title: 'Get a meeting’s learner report',
    route: 'GET /v1/meetings/:id/report',
    description:
      'The learner report of a meeting: each goal’s score with the participant’s own sentences it rests on, feedback, strengths, growth areas, what to practise next and the coach’s comment.',
  }),
];
