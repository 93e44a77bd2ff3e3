// The scenario author's view of what the live engine builds (inside the authenticated /v1 scope).
import { Type } from 'typebox';
import { Nullable, UuidParam, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { TAG_PATTERN } from '../memories/facts.ts';
import { type PromptPreviewDeps, previewSystemPrompt } from './prompt-preview.ts';

const PreviewQuery = Type.Object(
  {
    person_name: Type.Optional(
      Type.String({ maxLength: 200, description: 'The participant’s name, as `person_name` of a meeting.' }),
    ),
    note_context: Type.Optional(
      Type.String({ maxLength: 10_000, description: 'Per-session context, as `note_context` of a meeting.' }),
    ),
    user_memory_tag: Type.Optional(
      Type.String({
        pattern: TAG_PATTERN,
        description:
          'The memory container to read when the scenario’s memory is on. Default: yours (`membership:<id>`), as for a regular meeting you start.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PromptPreview = Type.Object(
  {
    system_prompt: Type.String({
      description:
        'The system prompt a meeting started now would get: persona, conversation rules, script, session context, remembered facts, tools and the guardrails block, in that order. Goals never appear in it.',
    }),
    tools: Type.Array(Type.String(), {
      description:
        'The tools the persona would be offered: `end_call`, `web_search` when configured, the custom functions.',
    }),
    memory_tag: Nullable(
      Type.String({ description: 'The memory container read; null when the scenario’s memory is off.' }),
    ),
  },
  { $id: 'PromptPreview', title: 'PromptPreview' },
);

export const promptPreviewRoutes: RouteModule<{ preview: PromptPreviewDeps }> = (app, { preview }) => {
  app.get(
    '/scenarios/:id/prompt-preview',
    {
      // The prompt holds the guardrails' text and the container's facts, readable only with those scopes.
      config: { scopes: ['scenarios:read', 'guardrails:read', 'memories:read'] },
      schema: {
        tags: ['Scenarios'],
        operationId: 'previewScenarioPrompt',
        summary:
          'The system prompt a meeting of this scenario would get, built by the live engine (with the guardrails block and memories). For authors; never shown to participants.',
        params: UuidParam,
        querystring: PreviewQuery,
        response: withErrors({ 200: PromptPreview }),
      },
    },
    async (request) => previewSystemPrompt(preview, request.principal, request.params.id, request.query),
  );
};
