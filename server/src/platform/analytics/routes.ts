import { Type } from 'typebox';
import { ErrorResponse, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  AnalyticsScenarioParams,
  AnalyticsScenarioQuery,
  AnalyticsWindowQuery,
  ScenarioAnalytics,
  ScenarioAnalyticsSummary,
} from './schemas.ts';
import type { AnalyticsService } from './service.ts';

const tags = ['Analytics'];

/** Team analytics (docs/analytics.md): read by every member (`analytics:read`). */
export const analyticsRoutes: RouteModule<{ analytics: AnalyticsService }> = (app, { analytics }) => {
  app.get(
    '/analytics/scenarios',
    {
      schema: {
        tags,
        operationId: 'listAnalyticsScenarios',
        summary:
          'Each scenario of the workspace with its analysed meetings, participants, average score (percent of the goals’ ranges), last meeting and assignment completion.',
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), data: Type.Array(ScenarioAnalyticsSummary) }),
        }),
      },
    },
    async (request) => ({ status: 'success' as const, data: await analytics.scenarios(request.principal) }),
  );

  app.get(
    '/analytics/scenarios/:scenario_id',
    {
      schema: {
        tags,
        operationId: 'getAnalyticsScenario',
        summary:
          'One scenario’s cohort: each goal’s scores per week or month, each participant’s progress, and assignment completion.',
        params: AnalyticsScenarioParams,
        querystring: AnalyticsScenarioQuery,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), data: ScenarioAnalytics }),
        }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await analytics.scenario(request.principal, request.params.scenario_id, request.query),
    }),
  );

  app.get(
    '/analytics/scenarios/:scenario_id/results.csv',
    {
      schema: {
        tags,
        operationId: 'exportAnalyticsResults',
        summary:
          'Every goal result of the scenario’s analysed meetings as CSV, one row per meeting and goal (text starting with = + - @ is prefixed with an apostrophe).',
        params: AnalyticsScenarioParams,
        querystring: AnalyticsWindowQuery,
        response: {
          200: {
            description: 'A CSV file (UTF-8 with a byte order mark, CRLF line ends) with a header row.',
            content: { 'text/csv': { schema: Type.String() } },
          },
          '4xx': ErrorResponse,
          '5xx': ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { filename, body } = await analytics.csv(
        request.principal,
        request.params.scenario_id,
        request.query,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Cache-Control', 'no-store')
        .send(body);
    },
  );
};
