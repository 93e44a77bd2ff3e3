import { Type } from 'typebox';
import { positionOf } from '../../core/http/pagination.ts';
import { ArrayOrPage, Deleted, UuidParam, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { sendWholeList } from '../../core/http/whole-list.ts';
import { BulkGoalsBody, CreateGoalBody, Goal, GoalListQuery, UpdateGoalBody } from './schemas.ts';
import type { GoalService } from './service.ts';

const tags = ['Goals'];

export const goalRoutes: RouteModule<{ goals: GoalService }> = (app, { goals }) => {
  app.get(
    '/goals',
    {
      schema: {
        tags,
        operationId: 'listGoals',
        summary: 'List goals, newest first: an array, or a page envelope when `limit` or `cursor` is sent.',
        querystring: GoalListQuery,
        response: withErrors({ 200: ArrayOrPage(Goal) }),
      },
    },
    async (request, reply) => {
      const { scenario_id: scenarioId, ...pageQuery } = request.query;
      const page = goals.paginate(pageQuery, request.principal);
      if (!page) {
        return sendWholeList(
          request,
          reply,
          (chunk) => goals.listChunk(request.principal, chunk, scenarioId),
          positionOf,
          (rows) => goals.renderChunk(rows),
        );
      }
      return goals.list(request.principal, page, scenarioId);
    },
  );

  app.get(
    '/goals/:id',
    {
      schema: {
        tags,
        operationId: 'getGoal',
        summary: 'Read a goal with the ids of the scenarios it scores.',
        params: UuidParam,
        response: withErrors({ 200: Goal }),
      },
    },
    async (request) => goals.get(request.principal, request.params.id),
  );

  app.post(
    '/goals',
    {
      schema: {
        tags,
        operationId: 'createGoal',
        summary: 'Create a goal. `scenario_id` and the legacy `scenarios` array link it to scenarios.',
        body: CreateGoalBody,
        response: withErrors({ 201: Goal }),
      },
    },
    async (request, reply) => reply.status(201).send(await goals.create(request.principal, request.body)),
  );

  app.post(
    '/goals/bulk',
    {
      schema: {
        tags,
        operationId: 'bulkCreateGoals',
        summary:
          'Create up to 100 goals at once, all or nothing: one invalid goal (named as `goals[i].field`) creates none.',
        body: BulkGoalsBody,
        response: withErrors({ 201: Type.Object({ data: Type.Array(Goal) }) }),
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await goals.bulkCreate(request.principal, request.body.goals) }),
  );

  app.put(
    '/goals/:id',
    {
      schema: {
        tags,
        operationId: 'updateGoal',
        summary: 'Update a goal: only the fields sent change; answers with the whole goal.',
        params: UuidParam,
        body: UpdateGoalBody,
        response: withErrors({ 200: Goal }),
      },
    },
    async (request) => goals.update(request.principal, request.params.id, request.body),
  );

  app.delete(
    '/goals/:id',
    {
      schema: {
        tags,
        operationId: 'deleteGoal',
        summary: 'Delete a goal; it is detached from every scenario.',
        params: UuidParam,
        response: withErrors({ 200: Deleted('goal') }),
      },
    },
    async (request) => goals.delete(request.principal, request.params.id),
  );
};
