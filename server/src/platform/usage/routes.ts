// GET /usage: what a workspace consumed over a period (docs/live-engine.md, "Usage"): session
// minutes for every meeting; model tokens only for meetings answered by the platform LLM (custom
// agents and the offline engine spend none of ours).

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { invalidParam } from '../../core/http/errors.ts';
import { Timestamp, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

const Totals = {
  meetings: Type.Integer(),
  session_seconds: Type.Integer(),
  session_minutes: Type.Number({ description: 'session_seconds / 60, rounded up per meeting.' }),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
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

export const usageRoutes: RouteModule<{ db: Kysely<DB>; clock: Clock }> = (app, { db, clock }) => {
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
    async (request) => {
      const to = request.query.to ? new Date(request.query.to) : clock.now();
      const from = request.query.from ? new Date(request.query.from) : new Date(to.getTime() - 30 * DAY_MS);
      if (Number.isNaN(to.getTime())) throw invalidParam('to', 'to must be an ISO 8601 timestamp.');
      if (Number.isNaN(from.getTime())) throw invalidParam('from', 'from must be an ISO 8601 timestamp.');
      if (from >= to) throw invalidParam('from', 'from must be before to.');
      if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
        throw invalidParam('from', `The period may span at most ${MAX_RANGE_DAYS} days.`);
      }
      let query = db
        .selectFrom('meeting_usage')
        .innerJoin('meetings', 'meetings.id', 'meeting_usage.meeting_id')
        .select([
          'meeting_usage.provider',
          sql<number>`count(*)`.as('meetings'),
          sql<number>`coalesce(sum(meeting_usage.session_seconds), 0)`.as('session_seconds'),
          sql<number>`coalesce(sum(ceil(meeting_usage.session_seconds / 60.0)), 0)`.as('session_minutes'),
          sql<number>`coalesce(sum(meeting_usage.prompt_tokens), 0)`.as('prompt_tokens'),
          sql<number>`coalesce(sum(meeting_usage.completion_tokens), 0)`.as('completion_tokens'),
        ])
        .where('meeting_usage.account_id', '=', request.principal.accountId)
        .where('meetings.created_at', '>=', from)
        .where('meetings.created_at', '<', to)
        .groupBy('meeting_usage.provider')
        .orderBy('meeting_usage.provider');
      if (request.query.scenario_id)
        query = query.where('meetings.scenario_id', '=', request.query.scenario_id);
      const rows = await query.execute().catch((error) => {
        if ((error as { code?: string }).code === '22P02')
          throw invalidParam('scenario_id', 'scenario_id must be a UUID.');
        throw error;
      });
      const byProvider = rows.map((row) => {
        const prompt = Number(row.prompt_tokens);
        const completion = Number(row.completion_tokens);
        return {
          provider: row.provider,
          meetings: Number(row.meetings),
          session_seconds: Number(row.session_seconds),
          session_minutes: Number(row.session_minutes),
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
        };
      });
      const sum = (field: keyof (typeof byProvider)[number]) =>
        byProvider.reduce((total, row) => total + (row[field] as number), 0);
      return {
        success: true as const,
        data: {
          from: from.toISOString(),
          to: to.toISOString(),
          meetings: sum('meetings'),
          session_seconds: sum('session_seconds'),
          session_minutes: sum('session_minutes'),
          prompt_tokens: sum('prompt_tokens'),
          completion_tokens: sum('completion_tokens'),
          total_tokens: sum('total_tokens'),
          by_provider: byProvider,
        },
      };
    },
  );
};
