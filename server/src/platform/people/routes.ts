import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  PeopleGroups,
  PeopleQuery,
  Person,
  PersonCreate,
  PersonParams,
  PersonProgress,
  PersonUpdate,
} from './schemas.ts';
import type { PeopleService } from './service.ts';

const tags = ['People'];
const one = <T extends Parameters<typeof Type.Object>[0][string]>(item: T) =>
  Type.Object({ status: Type.Literal('success'), data: item });

/** The workspace's people and their practice history (docs/people.md). */
export const peopleRoutes: RouteModule<{ people: PeopleService }> = (app, { people }) => {
  app.get(
    '/people',
    {
      schema: {
        tags,
        operationId: 'listPeople',
        summary:
          'People of the workspace, newest first, with how many meetings each has. Send `limit` or `cursor` to page.',
        querystring: PeopleQuery,
        response: withErrors({
          200: Type.Object({
            status: Type.Literal('success'),
            data: Type.Array(Person),
            object: Type.Optional(Type.Literal('list')),
            has_more: Type.Optional(Type.Boolean()),
            next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          }),
        }),
      },
    },
    async (request) => {
      const result = await people.list(request.principal, request.query);
      return Array.isArray(result)
        ? { status: 'success' as const, data: result }
        : { status: 'success' as const, ...result };
    },
  );

  app.post(
    '/people',
    {
      schema: {
        tags,
        operationId: 'createPerson',
        summary: 'Add a person (e-mail and external id each unique in the workspace).',
        body: PersonCreate,
        response: withErrors({ 201: one(Person) }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ status: 'success', data: await people.create(request.principal, request.body) }),
  );

  app.get(
    '/people/groups',
    {
      schema: {
        tags,
        operationId: 'listPeopleGroups',
        summary: 'The groups people are in, each with how many people: assign practice to one at once.',
        response: withErrors({ 200: PeopleGroups }),
      },
    },
    async (request) => ({ status: 'success' as const, data: await people.groups(request.principal) }),
  );

  app.get(
    '/people/:person_id',
    {
      schema: {
        tags,
        operationId: 'getPerson',
        params: PersonParams,
        response: withErrors({ 200: one(Person) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await people.get(request.principal, request.params.person_id),
    }),
  );

  app.patch(
    '/people/:person_id',
    {
      schema: {
        tags,
        operationId: 'updatePerson',
        params: PersonParams,
        body: PersonUpdate,
        response: withErrors({ 200: one(Person) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await people.update(request.principal, request.params.person_id, request.body),
    }),
  );

  app.delete(
    '/people/:person_id',
    {
      schema: {
        tags,
        operationId: 'deletePerson',
        summary: 'Delete a person; their meetings stay, linked to nobody.',
        params: PersonParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await people.delete(request.principal, request.params.person_id);
      return { status: 'success' as const, message: 'Person deleted.' };
    },
  );

  app.get(
    '/people/:person_id/progress',
    {
      schema: {
        tags,
        operationId: 'getPersonProgress',
        summary:
          'A person’s practice over time: their meetings with scores and feedback, and one score series per goal.',
        params: PersonParams,
        response: withErrors({ 200: one(PersonProgress) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await people.progress(request.principal, request.params.person_id),
    }),
  );
};
