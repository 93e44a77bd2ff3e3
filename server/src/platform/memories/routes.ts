import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, type FieldError } from '../../core/http/errors.ts';
import { pageEnvelope } from '../../core/http/pagination.ts';
import { Nullable, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  CreateMemoriesBody,
  CreateMemoriesResponse,
  ListMemoriesQuery,
  ListTagsQuery,
  MAX_MEMORY_LIMIT,
  Memory,
  MemoryIdParams,
  TagDetail,
  TagMemoriesQuery,
  TagParams,
  TagSummary,
  UpdateMemoryBody,
} from './schemas.ts';
import type { MemoryPageQuery, MemoryService } from './service.ts';

const tags = ['Memories'];
/** A container and one page of its memories; the cursor continues `data.memories`. */
const TagPage = Type.Object({
  data: TagDetail,
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
});
const NoContent = Type.Null({ description: 'No content.' });

/**
 * `limit` here keeps the spec's meaning, "at most this many memories" (1 to 1000, default 400),
 * rather than the 1-to-100 page size of other lists; `next_cursor` reads on past it. It is checked
 * before schema validation so its error names the right range.
 */
async function checkMemoryLimit(request: FastifyRequest) {
  const raw = (request.query as Record<string, unknown> | undefined)?.limit;
  if (raw === undefined) return;
  const value = typeof raw === 'string' && /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_MEMORY_LIMIT)) {
    throw new AppError('parameter_invalid', `limit must be an integer from 1 to ${MAX_MEMORY_LIMIT}.`, {
      param: 'limit',
    });
  }
}

/** The tag and the `source…` fields are fixed when a memory is written; naming them is an error. */
async function refuseImmutableFields(request: FastifyRequest) {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const errors: FieldError[] = Object.keys(body)
    .filter((field) => field === 'user_memory_tag' || field.startsWith('source'))
    .map((field) => ({
      param: field,
      code: 'parameter_not_allowed',
      message: `${field} cannot be changed after a memory is created.`,
    }));
  if (errors.length > 0) {
    throw new AppError('parameter_not_allowed', errors[0]!.message, { param: errors[0]!.param, errors });
  }
}

const wildcardTag = (request: FastifyRequest) => (request.params as Record<string, string>)['*'] ?? '';

export const memoryRoutes: RouteModule<{ memories: MemoryService }> = (app, { memories }) => {
  app.post(
    '/memories',
    {
      schema: {
        tags,
        operationId: 'createMemories',
        summary:
          'Add up to 500 entries to a container. Multi-line strings become one fact per line; facts already held are skipped.',
        body: CreateMemoriesBody,
        response: withErrors({ 201: CreateMemoriesResponse }),
      },
    },
    async (request, reply) => {
      const data = await memories.create(request.principal, request.body);
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/memories',
    {
      preValidation: checkMemoryLimit,
      schema: {
        tags,
        operationId: 'listMemories',
        summary:
          'Memories of a container (or of the workspace), newest first: at most `limit`; `next_cursor` reads on.',
        querystring: ListMemoriesQuery,
        response: withErrors({ 200: pageEnvelope(Memory) }),
      },
    },
    async (request) => memories.list(request.principal, request.query.user_memory_tag, request.query),
  );

  app.get(
    '/memories/tags',
    {
      schema: {
        tags,
        operationId: 'listMemoryTags',
        summary:
          'Containers holding at least one memory, most recently written first. Send `limit` or `cursor` to page.',
        querystring: ListTagsQuery,
        response: withErrors({
          200: Type.Object({
            data: Type.Array(TagSummary),
            object: Type.Optional(Type.Literal('list')),
            has_more: Type.Optional(Type.Boolean()),
            next_cursor: Type.Optional(Nullable(Type.String())),
          }),
        }),
      },
    },
    async (request) => memories.tags(request.principal, request.query),
  );

  const readTag = (request: FastifyRequest, tag: string, query: MemoryPageQuery) =>
    memories.tag(request.principal, tag, query);
  const deleteTag = async (request: FastifyRequest, reply: FastifyReply, tag: string) => {
    await memories.deleteTag(request.principal, tag);
    return reply.status(204).send(null);
  };

  app.get(
    '/memories/tags/:tag',
    {
      preValidation: checkMemoryLimit,
      schema: {
        tags,
        operationId: 'getMemoryTag',
        summary:
          'A container summary and its memories, newest first: at most `limit`; `next_cursor` reads on. 404 when the container is empty.',
        params: TagParams,
        querystring: TagMemoriesQuery,
        response: withErrors({ 200: TagPage }),
      },
    },
    async (request) => readTag(request, request.params.tag, request.query),
  );

  app.delete(
    '/memories/tags/:tag',
    {
      schema: {
        tags,
        operationId: 'deleteMemoryTag',
        summary: 'Delete every memory under the tag, for every agent. 404 when the container is empty.',
        params: TagParams,
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => deleteTag(request, reply, request.params.tag),
  );

  // The same two operations for tags the router will not take as one path parameter: longer than
  // its parameter limit once URL-encoded (tags run to 128 characters), or sent with a raw `/`.
  // Hidden from the OpenAPI document: they are getMemoryTag and deleteMemoryTag themselves (an
  // integrator URL-encodes the tag and calls those), and OpenAPI has no wildcard path to name.
  app.get(
    '/memories/tags/*',
    {
      preValidation: checkMemoryLimit,
      schema: {
        hide: true,
        querystring: TagMemoriesQuery,
        response: withErrors({ 200: TagPage }),
      },
    },
    async (request) => readTag(request, wildcardTag(request), request.query),
  );

  app.delete(
    '/memories/tags/*',
    { schema: { hide: true, response: withErrors({ 204: NoContent }) } },
    async (request, reply) => deleteTag(request, reply, wildcardTag(request)),
  );

  app.get(
    '/memories/:id',
    {
      schema: {
        tags,
        operationId: 'getMemory',
        summary: 'Read one memory.',
        params: MemoryIdParams,
        response: withErrors({ 200: Type.Object({ data: Memory }) }),
      },
    },
    async (request) => ({ data: await memories.get(request.principal, request.params.id) }),
  );

  app.patch(
    '/memories/:id',
    {
      preValidation: refuseImmutableFields,
      schema: {
        tags,
        operationId: 'updateMemory',
        summary:
          'Edit the content or external_id (null clears it). 409 when the new content is already stored under the tag.',
        params: MemoryIdParams,
        body: UpdateMemoryBody,
        response: withErrors({ 200: Type.Object({ data: Memory }) }),
      },
    },
    async (request) => ({
      data: await memories.update(request.principal, request.params.id, request.body),
    }),
  );

  app.delete(
    '/memories/:id',
    {
      schema: {
        tags,
        operationId: 'deleteMemory',
        summary: 'Delete one memory.',
        params: MemoryIdParams,
        response: withErrors({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await memories.delete(request.principal, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
