// GET /usage: what a workspace consumed over a period (docs/live-engine.md, "Usage").
import { Type } from 'typebox';
import { Timestamp, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { UsageService } from './service.ts';

const Totals = {
  meetings: Type.Integer(),
  session_seconds: Type.Integer(),
  session_minutes: Type.Number({ description: 'session_seconds / 60, rounded up per meeting.' }),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  turns: Type.Integer({ description: 'Persona turns completed, the welcome included.' }),
  answered_by: Type.Object(
    {
      custom_agent: Type.Integer(),
      llm: Type.Integer(),
      offline: Type.Integer({
        description:
          'Turns of the embedded script engine: its own meetings, and turns it answered for a failed provider.',
      }),
      apology: Type.Integer({
        description: 'Turns in which every provider failed and the persona apologised.',
      }),
    },
    {
      description:
        'Who answered the persona turns (the welcome not included). For a meeting whose provider never failed, all of them are its provider.',
    },
  ),
};

const Usage = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    from: Timestamp,
    to: Timestamp,
    ...Totals,
    by_provider: Type.Array(
      Type.Object({
        provider: Type.String({ description: '`custom_agent`, `llm` or `offline`.' }),
        ...Totals,
      }),
    ),
  }),
});

const UsageQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Start (inclusive) of the period; default 30 days before `to`.',
    }),
  ),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End (exclusive); default now.' })),
  scenario_id: Type.Optional(Type.String({ description: 'Only meetings of this scenario.' })),
});

export const usageRoutes: RouteModule<{ usage: UsageService }> = (app, { usage }) => {
  app.get(
    '/usage',
    {
      schema: {
        tags: ['Usage'],
        operationId: 'getUsage',
        summary:
          'Usage of the workspace over a period (meetings created in it): session minutes, and model tokens of platform-LLM meetings.',
        querystring: UsageQuery,
        response: withErrors({ 200: Usage }),
      },
    },
    async (request) => usage.report(request.principal, request.query),
  );
};
