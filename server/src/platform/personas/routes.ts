import { Type } from 'typebox';
import { AppError, notFound } from '../../core/http/errors.ts';
import {
  PageQuery,
  type PageQuery as PageQueryType,
  type Paginator,
  positionOf,
} from '../../core/http/pagination.ts';
import { ArrayOrPage, DataList, Deleted, UuidParam, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { sendWholeList } from '../../core/http/whole-list.ts';
import { AVATARS, findAvatar, findVoice, renderAvatar, renderVoice, VOICES } from './catalog.ts';
import { Avatar, CreatePersonaBody, Persona, SetAvatarBody, UpdatePersonaBody, Voice } from './schemas.ts';
import type { PersonaService } from './service.ts';
import type { VoiceSamples } from './voice-samples.ts';

const tags = ['Personas'];
const catalogTags = ['Voices and avatars'];

export const personaRoutes: RouteModule<{
  personas: PersonaService;
  paginator: Paginator;
  config: { publicUrl: string };
  voiceSamples: VoiceSamples;
}> = (app, { personas, paginator, config, voiceSamples }) => {
  app.post(
    '/personas',
    {
      schema: {
        tags,
        operationId: 'createPersona',
        summary: 'Create a persona. Without `voice_id` the default voice of its gender is assigned.',
        body: CreatePersonaBody,
        response: withErrors({ 201: Persona }),
      },
    },
    async (request, reply) => reply.status(201).send(await personas.create(request.principal, request.body)),
  );

  app.get(
    '/personas',
    {
      schema: {
        tags,
        operationId: 'listPersonas',
        summary:
          'List personas, newest first: an array, or a page envelope when `limit` or `cursor` is sent.',
        querystring: PageQuery,
        response: withErrors({ 200: ArrayOrPage(Persona) }),
      },
    },
    async (request, reply) => {
      const page = personas.paginate(request.query, request.principal);
      if (!page) {
        return sendWholeList(
          request,
          reply,
          (chunk) => personas.listChunk(request.principal, chunk),
          positionOf,
          (rows) => rows.map((row) => personas.render(row)),
        );
      }
      return personas.list(request.principal, page);
    },
  );

  app.get(
    '/personas/:id',
    {
      schema: {
        tags,
        operationId: 'getPersona',
        summary: 'Read a persona.',
        params: UuidParam,
        response: withErrors({ 200: Persona }),
      },
    },
    async (request) => personas.get(request.principal, request.params.id),
  );

  app.put(
    '/personas/:id',
    {
      schema: {
        tags,
        operationId: 'updatePersona',
        summary:
          'Update a persona: only the fields sent change. `voice_id: null` restores the default voice; `avatar_id: null` clears the avatar.',
        params: UuidParam,
        body: UpdatePersonaBody,
        response: withErrors({ 200: Persona }),
      },
    },
    async (request) => personas.update(request.principal, request.params.id, request.body),
  );

  app.delete(
    '/personas/:id',
    {
      schema: {
        tags,
        operationId: 'deletePersona',
        summary: 'Delete a persona. Refused with 409 while a scenario still uses it.',
        params: UuidParam,
        response: withErrors({ 200: Deleted('persona') }),
      },
    },
    async (request) => personas.delete(request.principal, request.params.id),
  );

  app.put(
    '/personas/:id/avatar',
    {
      schema: {
        tags,
        operationId: 'setPersonaAvatar',
        summary:
          'Set the avatar from the catalog: its image becomes `avatar_url` and its gender the persona’s.',
        params: UuidParam,
        body: SetAvatarBody,
        response: withErrors({ 200: Persona }),
      },
    },
    async (request) => personas.setAvatar(request.principal, request.params.id, request.body.avatar_id),
  );

  app.delete(
    '/personas/:id/avatar',
    {
      schema: {
        tags,
        operationId: 'clearPersonaAvatar',
        summary: 'Clear the avatar (the gender and voice stay as they are).',
        params: UuidParam,
        response: withErrors({ 200: Persona }),
      },
    },
    async (request) => personas.clearAvatar(request.principal, request.params.id),
  );

  // The catalog is the same for every workspace; pagination works as on every list.
  const catalogPage = <T extends { id: string }>(
    items: readonly T[],
    query: PageQueryType,
    list: string,
    accountId: string,
  ) => {
    const page = paginator.parse(query, list, accountId);
    if (!page) return { data: [...items] };
    const start = page.after ? items.findIndex((item) => item.id === page.after!.id) + 1 : 0;
    if (page.after && start === 0) {
      throw new AppError('invalid_pagination', 'The cursor is not valid for this list.', { param: 'cursor' });
    }
    const data = items.slice(start, start + page.limit);
    const hasMore = start + page.limit < items.length;
    return {
      object: 'list' as const,
      data,
      has_more: hasMore,
      next_cursor: hasMore
        ? paginator.encode(list, accountId, { createdAt: CATALOG_EPOCH, id: data.at(-1)!.id })
        : null,
    };
  };

  app.get(
    '/voices',
    {
      schema: {
        tags: catalogTags,
        operationId: 'listVoices',
        summary: 'The built-in voices a persona can use.',
        querystring: PageQuery,
        response: withErrors({ 200: DataList(Voice) }),
      },
    },
    async (request) => {
      const page = catalogPage(VOICES, request.query, 'voices', request.principal.accountId);
      return { ...page, data: page.data.map(renderVoice) };
    },
  );

  app.get(
    '/voices/:id',
    {
      schema: {
        tags: catalogTags,
        operationId: 'getVoice',
        summary: 'Read one voice of the catalog.',
        params: UuidParam,
        response: withErrors({ 200: Voice }),
      },
    },
    async (request) => {
      const voice = findVoice(request.params.id.toLowerCase());
      if (!voice) throw notFound('voice');
      return renderVoice(voice);
    },
  );

  app.get(
    '/voices/:id/sample',
    {
      schema: {
        tags: catalogTags,
        operationId: 'getVoiceSample',
        summary:
          'A short sentence in this voice as `audio/wav`, spoken by the service’s own speech engine (what the room plays). 503 when the server has none (TTS_ENGINE=off).',
        params: UuidParam,
        response: withErrors({ 200: Type.String({ contentMediaType: 'audio/wav' }) }),
      },
    },
    async (request, reply) => {
      const voice = findVoice(request.params.id.toLowerCase());
      if (!voice) throw notFound('voice');
      const wav = await voiceSamples.sample(voice);
      return reply
        .header('Content-Type', 'audio/wav')
        .header('Content-Length', wav.length)
        .header('Cache-Control', 'private, max-age=86400')
        .header('X-Content-Type-Options', 'nosniff')
        .send(wav as never);
    },
  );

  app.get(
    '/avatars',
    {
      schema: {
        tags: catalogTags,
        operationId: 'listAvatars',
        summary: 'The built-in avatars; `image_url` is served by this service without credentials.',
        querystring: PageQuery,
        response: withErrors({ 200: DataList(Avatar) }),
      },
    },
    async (request) => {
      const page = catalogPage(AVATARS, request.query, 'avatars', request.principal.accountId);
      return { ...page, data: page.data.map((avatar) => renderAvatar(config.publicUrl, avatar)) };
    },
  );

  app.get(
    '/avatars/:id',
    {
      schema: {
        tags: catalogTags,
        operationId: 'getAvatar',
        summary: 'Read one avatar of the catalog.',
        params: UuidParam,
        response: withErrors({ 200: Avatar }),
      },
    },
    async (request) => {
      const avatar = findAvatar(request.params.id.toLowerCase());
      if (!avatar) throw notFound('avatar');
      return renderAvatar(config.publicUrl, avatar);
    },
  );
};

const CATALOG_EPOCH = '1970-01-01T00:00:00.000Z';
