import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { MAX_IMPORT_ENTRIES, TAG_PATTERN } from './facts.ts';

export const DEFAULT_MEMORY_LIMIT = 400;
export const MAX_MEMORY_LIMIT = 1000;

const tag = (description: string) =>
  Type.String({ pattern: TAG_PATTERN, description, examples: ['candidate:jane@example.com'] });

export const Memory = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    user_memory_tag: Type.String({ examples: ['candidate:jane@example.com'] }),
    content: Type.String({ examples: ['Prefers morning interviews.'] }),
    external_id: Nullable(Type.String()),
    scenario_id: Nullable(Type.String({ description: 'The scenario the fact relates to, if any.' })),
    source: Type.Union([Type.Literal('api'), Type.Literal('meeting')], {
      description: '`api` when written through this API, `meeting` when learnt in a meeting.',
    }),
    source_meeting_id: Nullable(Type.String({ description: 'The meeting the fact was learnt in.' })),
    source_scenario_id: Nullable(Type.String({ description: "That meeting's scenario." })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Memory', title: 'Memory' },
);

export const MemorySubject = Nullable(
  Type.Object(
    {
      type: Type.Union([Type.Literal('membership'), Type.Literal('participant')]),
      id: Type.String(),
    },
    {
      $id: 'MemorySubject',
      title: 'MemorySubject',
      description:
        'Who a default container belongs to (`membership:<id>` or `participant:<id>` tags); null for custom tags.',
    },
  ),
);

export const TagSummary = Type.Object(
  {
    user_memory_tag: Type.String({ examples: ['membership:2f0c6a8e-1b7e-4d4b-9a57-0d7f6c0f9e11'] }),
    subject: MemorySubject,
    memory_count: Type.Integer({ minimum: 1 }),
    last_memory_at: Timestamp,
    last_activity_at: Type.String({
      format: 'date-time',
      description: 'When a memory of the container was last written (created, imported or edited).',
    }),
  },
  { $id: 'MemoryTagSummary', title: 'MemoryTagSummary' },
);

export const TagDetail = Type.Object(
  { ...TagSummary.properties, memories: Type.Array(Memory) },
  { $id: 'MemoryTag', title: 'MemoryTag' },
);

const MemoryEntry = Type.Union(
  [
    Type.String({
      description:
        'One fact, or several on separate lines (leading `-`, `*`, `•` bullets and `1.` / `2)` numbering are removed).',
    }),
    Type.Object(
      {
        content: Type.String({ description: 'The fact (split into lines like a string entry).' }),
        external_id: Type.Optional(
          Nullable(Type.String({ description: 'Your id for the fact, up to 255 characters.' })),
        ),
        created_at: Type.Optional(
          Type.String({ description: 'When the fact was learnt (ISO 8601); defaults to now.' }),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'A string or an object; each fact is at most 1,000 characters.' },
);

export const CreateMemoriesBody = Type.Object(
  {
    user_memory_tag: tag(
      'The container: up to 128 letters, digits and `. _ : @ + - / | =`. Cannot change afterwards.',
    ),
    scenario_id: Type.Optional(Type.String({ description: 'Relates the facts to one of your scenarios.' })),
    memories: Type.Array(MemoryEntry, { minItems: 1, maxItems: MAX_IMPORT_ENTRIES }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        user_memory_tag: 'candidate:jane@example.com',
        memories: [
          'Prefers morning interviews.',
          '- Has 6 years of React experience\n- Lives in Lisbon',
          {
            content: 'Asked about remote work.',
            external_id: 'crm-note-991',
            created_at: '2026-10-02T09:30:00Z',
          },
        ],
      },
    ],
  },
);

export const SkippedFact = Type.Object(
  {
    content: Type.String(),
    reason: Type.Union([Type.Literal('duplicate'), Type.Literal('duplicate_in_request')], {
      description:
        '`duplicate`: the container already holds this fact; `duplicate_in_request`: it came earlier in this request.',
    }),
  },
  { $id: 'SkippedMemory', title: 'SkippedMemory' },
);

export const CreateMemoriesResponse = Type.Object({
  data: Type.Object({ created: Type.Array(Memory), skipped: Type.Array(SkippedFact) }),
});

/** Memories page with `limit` as their own "at most this many" and the usual cursor after it. */
const MemoryCursor = {
  cursor: Type.Optional(
    Type.String({
      description: 'Opaque cursor from a previous page (`next_cursor`): the memories after it.',
    }),
  ),
  starting_after: PageQuery.properties.starting_after,
};

export const ListMemoriesQuery = Type.Object({
  user_memory_tag: Type.Optional(tag('Only this container. Omitted: every memory of the workspace.')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_MEMORY_LIMIT,
      description: 'At most this many, 1 to 1000 (default 400).',
    }),
  ),
  ...MemoryCursor,
});

export const TagMemoriesQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_MEMORY_LIMIT,
      description: 'At most this many memories (default 400).',
    }),
  ),
  ...MemoryCursor,
});

export const ListTagsQuery = Type.Object({
  ...PageQuery.properties,
  scenario_id: Type.Optional(
    Type.String({ description: 'Only containers holding a memory of this scenario.' }),
  ),
});

export const UpdateMemoryBody = Type.Object(
  {
    content: Type.Optional(Type.String({ description: 'One fact on one line, up to 1,000 characters.' })),
    external_id: Type.Optional(
      Nullable(Type.String({ description: 'Up to 255 characters; null clears it.' })),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ content: 'Prefers afternoon interviews.' }, { external_id: null }],
  },
);

export const MemoryIdParams = Type.Object({ id: Type.String({ description: 'Memory id (UUID).' }) });
export const TagParams = Type.Object({
  tag: Type.String({ description: 'The user_memory_tag, URL-encoded (e.g. `team%2Falpha`).' }),
});
