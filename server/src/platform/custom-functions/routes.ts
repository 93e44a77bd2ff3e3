import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { listName, Nullable, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  AttachmentParams,
  CreateCustomFunctionBody,
  CustomFunction,
  CustomFunctionTestResult,
  CustomFunctionWithScenarios,
  CustomFunctionWithSecret,
  FunctionIdParams,
  ScenarioCustomFunction,
  ScenarioIdParams,
  TestCustomFunctionBody,
  UpdateCustomFunctionBody,
} from './schemas.ts';
import type { CustomFunctionService } from './service.ts';
import { type TestCallDeps, testCustomFunction } from './test-call.ts';

const tags = ['Custom functions'];

const listOf = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      object: Type.Optional(Type.Literal('list')),
      has_more: Type.Optional(Type.Boolean()),
      next_cursor: Type.Optional(Nullable(Type.String())),
    },
    listName(item),
  );

export const customFunctionRoutes: RouteModule<{
  functions: CustomFunctionService;
  testCall: TestCallDeps;
}> = (app, { functions, testCall }) => {
  app.post(
    '/custom-functions',
    {
      schema: {
        tags,
        operationId: 'createCustomFunction',
        summary:
          'Register a custom function (tool). The signing secret is returned once; omit it to get a generated `whsec_` secret.',
        body: CreateCustomFunctionBody,
        response: withErrors({ 201: Type.Object({ data: CustomFunctionWithSecret }) }),
      },
    },
    async (request, reply) => {
      const data = await functions.create(request.principal, request.body);
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/custom-functions',
    {
      schema: {
        tags,
        operationId: 'listCustomFunctions',
        summary: 'List custom functions, newest first. Send `limit` or `cursor` to page.',
        querystring: PageQuery,
        response: withErrors({ 200: listOf(CustomFunction) }),
      },
    },
    async (request) =>
      functions.list(request.principal, functions.paginate(request.query, request.principal)),
  );

  app.get(
    '/custom-functions/:id',
    {
      schema: {
        tags,
        operationId: 'getCustomFunction',
        summary: 'Read a custom function with the scenarios it is attached to. The secret is never shown.',
        params: FunctionIdParams,
        response: withErrors({ 200: Type.Object({ data: CustomFunctionWithScenarios }) }),
      },
    },
    async (request) => ({ data: await functions.get(request.principal, request.params.id) }),
  );

  app.patch(
    '/custom-functions/:id',
    {
      schema: {
        tags,
        operationId: 'updateCustomFunction',
        summary:
          'Update a custom function. Every attached scenario uses the new definition from its next call.',
        params: FunctionIdParams,
        body: UpdateCustomFunctionBody,
        response: withErrors({ 200: Type.Object({ data: CustomFunction }) }),
      },
    },
    async (request) => ({
      data: await functions.update(request.principal, request.params.id, request.body),
    }),
  );

  app.post(
    '/custom-functions/:id/rotate-secret',
    {
      schema: {
        tags,
        operationId: 'rotateCustomFunctionSecret',
        summary: 'Replace the signing secret with a generated one, effective at once; returned this once.',
        params: FunctionIdParams,
        response: withErrors({ 200: Type.Object({ data: CustomFunctionWithSecret }) }),
      },
    },
    async (request) => ({ data: await functions.rotateSecret(request.principal, request.params.id) }),
  );

  app.post(
    '/custom-functions/:id/test',
    {
      schema: {
        tags,
        operationId: 'testCustomFunction',
        summary:
          'Make a real signed call to the function’s webhook_url with these arguments, as a meeting would (the body has `"test": true` and null meeting and scenario ids), and show the answer. Answers 200 whatever the receiver did.',
        params: FunctionIdParams,
        body: TestCustomFunctionBody,
        response: withErrors({ 200: Type.Object({ data: CustomFunctionTestResult }) }),
      },
    },
    async (request) => ({
      data: await testCustomFunction(testCall, request.principal, request.params.id, request.body.arguments),
    }),
  );

  app.delete(
    '/custom-functions/:id',
    {
      schema: {
        tags,
        operationId: 'deleteCustomFunction',
        summary: 'Delete a custom function permanently; it is detached from every scenario.',
        params: FunctionIdParams,
        response: withErrors({ 204: Type.Null({ description: 'No content.' }) }),
      },
    },
    async (request, reply) => {
      await functions.delete(request.principal, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/scenarios/:scenarioId/custom-functions',
    {
      schema: {
        tags,
        operationId: 'listScenarioCustomFunctions',
        summary: "A scenario's custom functions in attach order. The secrets are never shown.",
        params: ScenarioIdParams,
        querystring: PageQuery,
        response: withErrors({ 200: listOf(ScenarioCustomFunction) }),
      },
    },
    async (request) => functions.listForScenario(request.principal, request.params.scenarioId, request.query),
  );

  app.post(
    '/scenarios/:scenarioId/custom-functions/:functionId/attach',
    {
      schema: {
        tags,
        operationId: 'attachCustomFunction',
        summary: 'Attach a custom function to a scenario (no body). Idempotent.',
        params: AttachmentParams,
        response: withErrors({ 200: Type.Object({ data: ScenarioCustomFunction }) }),
      },
    },
    async (request) => ({
      data: await functions.attach(request.principal, request.params.scenarioId, request.params.functionId),
    }),
  );

  app.delete(
    '/scenarios/:scenarioId/custom-functions/:functionId',
    {
      schema: {
        tags,
        operationId: 'detachCustomFunction',
        summary: 'Detach a custom function from a scenario.',
        params: AttachmentParams,
        response: withErrors({ 204: Type.Null({ description: 'No content.' }) }),
      },
    },
    async (request, reply) => {
      await functions.detach(request.principal, request.params.scenarioId, request.params.functionId);
      return reply.status(204).send(null);
    },
  );
};
