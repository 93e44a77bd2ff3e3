import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../core/http/errors.ts';
import { PageQuery } from '../../core/http/pagination.ts';
import { DataList, Deleted, UuidParam, withErrors } from '../../core/http/schemas.ts';
import type { AppInstance, RouteModule } from '../../core/http/types.ts';
import { legacyWebhookDeprecationHeaders } from '../events/legacy-webhook.ts';
import type { ScenarioTransfer } from './export.ts';
import { ImportResult, ScenarioExport } from './export-schemas.ts';
import { generateRoutes } from './generate/routes.ts';
import type { ScenarioGenerator } from './generate/service.ts';
import {
  CreateScenarioBody,
  Scenario,
  ScenarioMeeting,
  ScenarioSummary,
  SessionOptionsResponse,
  UpdateScenarioBody,
  UpdateSessionOptionsBody,
} from './schemas.ts';
import type { ScenarioService } from './service.ts';

const tags = ['Scenarios'];

/** `default_kind` marks the seeded scenarios; nobody may set it. */
async function refuseDefaultKind(request: FastifyRequest) {
  const body = request.body;
  if (body && typeof body === 'object' && 'default_kind' in body) {
    throw new AppError('parameter_not_allowed', 'default_kind is a read-only marker of seeded scenarios.', {
      param: 'default_kind',
    });
  }
}

export const scenarioRoutes: RouteModule<{
  scenarios: ScenarioService;
  scenarioTransfer: ScenarioTransfer;
  scenarioGenerator: ScenarioGenerator;
  config: { legacyWebhookSunset: Date };
}> = async (app, { scenarios, scenarioTransfer, scenarioGenerator, config }) => {
  // Multipart parsing exists only inside this child scope.
  await app.register(async (scope) => generateRoutes(scope as AppInstance, { scenarioGenerator }));

  app.post(
    '/scenarios',
    {
      preValidation: refuseDefaultKind,
      schema: {
        tags,
        operationId: 'createScenario',
        summary:
          'Create a scenario. Without `welcome_message` one is generated from the persona and the script.',
        body: CreateScenarioBody,
        response: withErrors({ 201: Scenario }),
      },
    },
    async (request, reply) => reply.status(201).send(await scenarios.create(request.principal, request.body)),
  );

  app.get(
    '/scenarios',
    {
      schema: {
        tags,
        operationId: 'listScenarios',
        summary:
          'List scenarios, newest first, as `{ data }` (with `object`, `has_more`, `next_cursor` when paginated). Items omit the prompt and nested attachments.',
        querystring: PageQuery,
        response: withErrors({ 200: DataList(ScenarioSummary) }),
      },
    },
    async (request) =>
      scenarios.list(request.principal, scenarios.paginate(request.query, request.principal)),
  );

  app.get(
    '/scenarios/:id',
    {
      schema: {
        tags,
        operationId: 'getScenario',
        summary:
          'The full scenario: prompt, nested Persona and Goals, guardrails, custom functions, meeting controls and session options.',
        params: UuidParam,
        response: withErrors({ 200: Scenario }),
      },
    },
    async (request) => scenarios.get(request.principal, request.params.id),
  );

  app.put(
    '/scenarios/:id',
    {
      preValidation: refuseDefaultKind,
      schema: {
        tags,
        operationId: 'updateScenario',
        summary:
          'Update a scenario: only the fields sent change (`goals` replaces the list; nested objects merge). Answers with the full scenario.',
        params: UuidParam,
        body: UpdateScenarioBody,
        response: withErrors({ 200: Scenario }),
      },
    },
    async (request) => scenarios.update(request.principal, request.params.id, request.body),
  );

  app.delete(
    '/scenarios/:id',
    {
      schema: {
        tags,
        operationId: 'deleteScenario',
        summary:
          'Delete a scenario. It answers 404 from then on; its meetings, analyses and transcripts stay readable.',
        params: UuidParam,
        response: withErrors({ 200: Deleted('scenario') }),
      },
    },
    async (request) => scenarios.delete(request.principal, request.params.id),
  );

  app.put(
    '/scenarios/:id/session-options',
    {
      schema: {
        tags,
        operationId: 'updateScenarioSessionOptions',
        summary:
          'Update session options, including the legacy per-scenario `webhook_url` (deprecated; sunset 2026-09-25, after which setting one answers 400 and null still clears it). The first response that sets a webhook_url carries its `webhook_secret`, once.',
        params: UuidParam,
        body: UpdateSessionOptionsBody,
        response: withErrors({ 200: SessionOptionsResponse }),
      },
    },
    async (request, reply) => {
      reply.headers(legacyWebhookDeprecationHeaders(config.legacyWebhookSunset));
      return scenarios.updateSessionOptions(request.principal, request.params.id, request.body);
    },
  );

  app.get(
    '/scenarios/:id/export',
    {
      schema: {
        tags,
        operationId: 'exportScenario',
        summary:
          'Export the scenario with its persona, goals, guardrails and custom functions as one JSON document, without secrets.',
        params: UuidParam,
        response: withErrors({ 200: ScenarioExport }),
      },
    },
    async (request) => scenarioTransfer.export(request.principal, request.params.id),
  );

  app.post(
    '/scenarios/import',
    {
      // An import creates a persona, goals, guardrails and custom functions as well.
      config: {
        scopes: [
          'scenarios:write',
          'personas:write',
          'goals:write',
          'guardrails:write',
          'custom_functions:write',
        ],
      },
      schema: {
        tags,
        operationId: 'importScenario',
        summary:
          'Re-create an exported scenario in this workspace with new ids. Guardrails and custom functions whose name exists here are reused.',
        body: ScenarioExport,
        response: withErrors({ 201: Type.Object({ ...ImportResult.properties, data: Scenario }) }),
      },
    },
    async (request, reply) =>
      reply.status(201).send(await scenarioTransfer.import(request.principal, request.body)),
  );

  app.get(
    '/scenarios/membership/:id/meetings',
    {
      schema: {
        tags,
        operationId: 'listScenarioMeetings',
        summary:
          'Meetings of a scenario, newest first, as `{ data }`; paginated when `limit` or `cursor` is sent.',
        params: UuidParam,
        querystring: PageQuery,
        response: withErrors({ 200: DataList(ScenarioMeeting) }),
      },
    },
    async (request) => scenarios.meetings(request.principal, request.params.id, request.query),
  );
};
