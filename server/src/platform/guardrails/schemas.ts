import { Type } from 'typebox';
import { listName, Nullable, Timestamp } from '../../core/http/schemas.ts';

export const GUARDRAIL_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';
export const MAX_GUARDRAIL_PROMPT = 10_000;
const MAX_POSITION = 1_000_000;

const EXAMPLE_PROMPT =
  'Never quote a salary figure or make a job offer. If asked, say the recruiter will follow up.';

const guardrailName = Type.String({
  pattern: GUARDRAIL_NAME_PATTERN,
  description: '1 to 64 letters, digits, `_` or `-`; unique in the workspace. Never shown to the persona.',
  examples: ['no-salary-talk'],
});
const guardrailPrompt = Type.String({
  minLength: 1,
  maxLength: MAX_GUARDRAIL_PROMPT,
  description: 'The rule, appended to the system prompt. Up to 10,000 characters; encrypted at rest.',
  examples: [EXAMPLE_PROMPT],
});
const position = (description = 'Order inside the guardrails block, lower first.') =>
  Type.Integer({ minimum: 0, maximum: MAX_POSITION, description, examples: [0] });

export const Guardrail = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    membership_id: Nullable(Type.String()),
    guardrail_name: Type.String({ examples: ['no-salary-talk'] }),
    guardrail_prompt: Type.String({ examples: [EXAMPLE_PROMPT] }),
    active: Type.Boolean({
      description: 'Account-level switch: false removes the rule from every scenario.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Guardrail', title: 'Guardrail' },
);

export const GuardrailScenario = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    active: Type.Boolean({ description: 'The attachment switch for this scenario.' }),
    position: Type.Integer(),
    attached_at: Timestamp,
  },
  { $id: 'GuardrailScenario', title: 'GuardrailScenario' },
);

export const GuardrailWithScenarios = Type.Object(
  { ...Guardrail.properties, scenarios: Type.Array(GuardrailScenario) },
  { $id: 'GuardrailWithScenarios', title: 'GuardrailWithScenarios' },
);

export const Attachment = Type.Object(
  {
    scenario_id: Type.String({ format: 'uuid' }),
    active: Type.Boolean({ description: 'Per-scenario switch.' }),
    position: Type.Integer(),
    attached_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'GuardrailAttachment', title: 'GuardrailAttachment' },
);

/** A guardrail as attached to one scenario: the definition plus its attachment. */
export const ScenarioGuardrail = Type.Object(
  {
    ...Guardrail.properties,
    attachment: Attachment,
    in_effect: Type.Boolean({
      description: "True when both switches are on, so the scenario's next meeting will include it.",
    }),
  },
  { $id: 'ScenarioGuardrail', title: 'ScenarioGuardrail' },
);

export const CreateGuardrailBody = Type.Object(
  {
    guardrail_name: guardrailName,
    guardrail_prompt: guardrailPrompt,
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    additionalProperties: false,
    examples: [{ guardrail_name: 'no-salary-talk', guardrail_prompt: EXAMPLE_PROMPT, active: true }],
  },
);

export const UpdateGuardrailBody = Type.Object(
  {
    guardrail_name: Type.Optional(guardrailName),
    guardrail_prompt: Type.Optional(guardrailPrompt),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ active: false }] },
);

export const AttachGuardrailBody = Type.Object(
  {
    position: Type.Optional(
      position('Order inside the block, lower first. Omitted: after the last attached guardrail.'),
    ),
  },
  { additionalProperties: false, examples: [{ position: 0 }] },
);

export const UpdateAttachmentBody = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'false removes the rule from this scenario only.' })),
    position: Type.Optional(position()),
  },
  { additionalProperties: false, examples: [{ active: false }, { position: 2 }] },
);

export const GuardrailIdParams = Type.Object({ id: Type.String({ description: 'Guardrail id (UUID).' }) });
export const ScenarioIdParams = Type.Object({
  scenarioId: Type.String({ description: 'Scenario id (UUID).' }),
});
export const AttachmentParams = Type.Object({
  scenarioId: Type.String({ description: 'Scenario id (UUID).' }),
  id: Type.String({ description: 'Guardrail id (UUID).' }),
});

export const listEnvelope = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      object: Type.Optional(Type.Literal('list')),
      has_more: Type.Optional(Type.Boolean()),
      next_cursor: Type.Optional(Nullable(Type.String())),
    },
    listName(item),
  );
