import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;

const RetentionDays = Nullable(
  Type.Integer({
    minimum: RETENTION_MIN_DAYS,
    maximum: RETENTION_MAX_DAYS,
    description:
      'Ended meetings older than this many days are deleted as `DELETE /meetings/{id}` deletes them (each fires `meeting.deleted` with reason `retention`). Null keeps meetings forever.',
  }),
);

export const Workspace = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    meeting_retention_days: RetentionDays,
    persona_engine: Type.Enum(['llm', 'offline'], {
      description:
        'Who plays the persona in meetings of scenarios without their own custom agent (`custom_agent_enabled`): ' +
        '`llm`, the language model the server is configured with (`LLM_BASE_URL`), or `offline`, the embedded ' +
        'script engine (deterministic, answers from the scenario’s text; no free conversation). A server setting, ' +
        'the same for every workspace on it (docs/connect-a-model.md).',
    }),
    persona_model: Nullable(
      Type.String({
        description: 'The model named in requests to `LLM_BASE_URL` (`LLM_MODEL`); null with `offline`.',
      }),
    ),
    created_at: Timestamp,
  },
  { $id: 'Workspace', title: 'Workspace' },
);

export const UpdateWorkspaceBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    meeting_retention_days: Type.Optional(RetentionDays),
  },
  { additionalProperties: false, examples: [{ meeting_retention_days: 90 }] },
);
