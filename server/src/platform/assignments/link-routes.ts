import { Type } from 'typebox';
import { Nullable, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { PracticeLinkService } from './practice-links.ts';
import { PracticeLink, ScenarioLinkParams } from './schemas.ts';

const tags = ['Assignments'];
const one = Type.Object({ status: Type.Literal('success'), data: PracticeLink });
// A link is practice given out, not authoring: coaches manage it (roles.ts, COACH_WRITES).
const reads = { scopes: ['assignments:read'] };
const writes = { scopes: ['assignments:write'] };

/** A public scenario's open practice link (docs/assignments.md, "Open practice links"). */
export const practiceLinkRoutes: RouteModule<{ links: PracticeLinkService }> = (app, { links }) => {
  app.get(
    '/scenarios/:scenario_id/practice-link',
    {
      config: reads,
      schema: {
        tags,
        operationId: 'getScenarioPracticeLink',
        summary: 'The scenario’s open practice link; `data` is null when it has none.',
        params: ScenarioLinkParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), data: Nullable(PracticeLink) }),
        }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await links.get(request.principal, request.params.scenario_id),
    }),
  );

  app.post(
    '/scenarios/:scenario_id/practice-link',
    {
      config: writes,
      schema: {
        tags,
        operationId: 'createScenarioPracticeLink',
        summary:
          'Open a public scenario to anyone with a link: each visitor gives a name and starts a meeting. Calling it again replaces the link (the old one stops working); 409 for a restricted scenario.',
        params: ScenarioLinkParams,
        response: withErrors({ 201: one }),
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        status: 'success',
        data: await links.create(request.principal, request.params.scenario_id),
      }),
  );

  app.delete(
    '/scenarios/:scenario_id/practice-link',
    {
      config: writes,
      schema: {
        tags,
        operationId: 'deleteScenarioPracticeLink',
        summary: 'Close the scenario’s open practice link.',
        params: ScenarioLinkParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await links.delete(request.principal, request.params.scenario_id);
      return { status: 'success' as const, message: 'Practice link closed.' };
    },
  );
};
