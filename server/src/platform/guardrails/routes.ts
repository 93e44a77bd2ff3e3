import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  AttachGuardrailBody,
  AttachmentParams,
  CreateGuardrailBody,
  Guardrail,
  GuardrailIdParams,
  GuardrailWithScenarios,
  listEnvelope,
  ScenarioGuardrail,
  ScenarioIdParams,
  UpdateAttachmentBody,
  UpdateGuardrailBody,
} from './schemas.ts';
import type { GuardrailService } from './service.ts';

const tags = ['Guardrails'];
const NoContent = Type.Null({ description: 'No content.' });

export const guardrailRoutes: RouteModule<{ guardrails: GuardrailService }> = (app, { guardrails }) => {
  app.post(
    '/guardrails',
    {
      schema: {
        tags,
        operationId: 'createGuardrail',
        summary:
          'Create a guardrail. Invalid payloads are answered 400 with every failing field in `errors`.',
        body: CreateGuardrailBody,
        response: withErrors({ 201: Type.Object({ data: Guardrail }) }),
      },
    },
    async (request, reply) => {
      const data = await guardrails.create(request.principal, request.body);
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/guardrails',
    {
      schema: {
        tags,
        operationId: 'listGuardrails',
        summary: 'List guardrails, newest first, in `data`. Send `limit` or `cursor` to page.',
        querystring: PageQuery,
        response: withErrors({ 200: listEnvelope(Guardrail) }),
      },
    },
    async (request) => {
      const page = guardrails.paginate(request.query, request.principal);
      return guardrails.list(request.principal, page);
    },
  );

  app.get(
    '/guardrails/:id',
    {
      schema: {
        tags,
        operationId: 'getGuardrail',
        summary: 'Read a guardrail with the scenarios it is attached to.',
        params: GuardrailIdParams,
        response: withErrors({ 200: Type.Object({ data: GuardrailWithScenarios }) }),
      },
    },
    async (request) => ({ data: await guardrails.get(request.principal, request.params.id) }),
  );

  app.patch(
    '/guardrails/:id',
    {
      schema: {
        tags,
        operationId: 'updateGuardrail',
        summary:
          "Update a guardrail. `active: false` removes it from every scenario; changes apply from each scenario's next meeting.",
        params: GuardrailIdParams,
        body: UpdateGuardrailBody,
        response: withErrors({ 200: Type.Object({ data: Guardrail }) }),
      },
    },
    async (request) => ({
      data: await guardrails.update(request.principal, request.params.id, request.body),
    }),
  );

  app.delete(
    '/guardrails/:id',
    {
      schema: {
        tags,
        operationId: 'deleteGuardrail',
        summary: 'Delete a guardrail permanently; it is detached from every scenario.',
        params: GuardrailIdParams,
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await guardrails.delete(request.principal, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/scenarios/:scenarioId/guardrails',
    {
      schema: {
        tags,
        operationId: 'listScenarioGuardrails',
        summary:
          "A scenario's guardrails in block order (position, then attach time), with their attachment.",
        params: ScenarioIdParams,
        querystring: PageQuery,
        response: withErrors({ 200: listEnvelope(ScenarioGuardrail) }),
      },
    },
    async (request) =>
      guardrails.listForScenario(request.principal, request.params.scenarioId, request.query),
  );

  app.post(
    '/scenarios/:scenarioId/guardrails/:id/attach',
    {
      schema: {
        tags,
        operationId: 'attachGuardrail',
        summary:
          'Attach a guardrail to a scenario. Idempotent: attaching again re-activates a disabled attachment.',
        params: AttachmentParams,
        body: AttachGuardrailBody,
        response: withErrors({ 200: Type.Object({ data: ScenarioGuardrail }) }),
      },
    },
    async (request) => ({
      data: await guardrails.attach(
        request.principal,
        request.params.scenarioId,
        request.params.id,
        request.body.position,
      ),
    }),
  );

  app.patch(
    '/scenarios/:scenarioId/guardrails/:id',
    {
      schema: {
        tags,
        operationId: 'updateGuardrailAttachment',
        summary: 'Switch a guardrail on or off for one scenario, or move it inside the block.',
        params: AttachmentParams,
        body: UpdateAttachmentBody,
        response: withErrors({ 200: Type.Object({ data: ScenarioGuardrail }) }),
      },
    },
    async (request) => ({
      data: await guardrails.updateAttachment(
        request.principal,
        request.params.scenarioId,
        request.params.id,
        request.body,
      ),
    }),
  );

  app.delete(
    '/scenarios/:scenarioId/guardrails/:id',
    {
      schema: {
        tags,
        operationId: 'detachGuardrail',
        summary: 'Detach a guardrail from a scenario.',
        params: AttachmentParams,
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await guardrails.detach(request.principal, request.params.scenarioId, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
