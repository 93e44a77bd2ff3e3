import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const FUNCTION_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';
/** A caller-chosen signing secret: 16 to 256 visible ASCII characters, no spaces. */
export const WEBHOOK_SECRET_PATTERN = '^[\\x21-\\x7E]{16,256}$';
export const DEFAULT_TIMEOUT_MS = 5000;
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 30_000;
export const MAX_DESCRIPTION = 1024;

const EXAMPLE_SCHEMA = {
  type: 'object',
  properties: {
    order_id: { type: 'string', description: 'The order number the participant mentions.' },
  },
  required: ['order_id'],
};
const EXAMPLE = {
  name: 'lookup_order',
  description: 'Looks up the status of a customer order by its number.',
  parameters_schema: EXAMPLE_SCHEMA,
  execution_mode: 'webhook',
  webhook_url: 'https://tools.example.com/understudy/lookup-order',
  timeout_ms: 5000,
};

const name = Type.String({
  pattern: FUNCTION_NAME_PATTERN,
  description: 'The name the model calls: 1 to 64 letters, digits, `_` or `-`; unique in the workspace.',
  examples: ['lookup_order'],
});
const description = Type.String({
  maxLength: MAX_DESCRIPTION,
  description: 'What the function does and when to call it; the model reads it. Up to 1,024 characters.',
});
const parametersSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'JSON Schema (draft-07 unless `$schema` says 2019-09 or 2020-12) of the arguments, with `type: "object"` at the top level.',
    examples: [EXAMPLE_SCHEMA],
  },
);
const executionMode = Type.Literal('webhook', {
  description: 'How the function runs: `webhook` POSTs the arguments to `webhook_url`.',
});
const webhookUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where calls are POSTed. HTTPS in production; plain http is accepted only in development.',
  examples: ['https://tools.example.com/understudy/lookup-order'],
});
const webhookSecret = Type.String({
  pattern: WEBHOOK_SECRET_PATTERN,
  description:
    'Signing secret (16 to 256 visible characters). Omitted on create: a `whsec_` secret is generated.',
});
const timeoutMs = Type.Integer({
  minimum: MIN_TIMEOUT_MS,
  maximum: MAX_TIMEOUT_MS,
  description: 'Per-call timeout in milliseconds, 100 to 30,000 (default 5,000).',
  examples: [DEFAULT_TIMEOUT_MS],
});

const fields = {
  id: Type.String({ format: 'uuid' }),
  membership_id: Nullable(Type.String()),
  name: Type.String({ examples: ['lookup_order'] }),
  description: Type.String(),
  parameters_schema: Type.Object({}, { additionalProperties: true, examples: [EXAMPLE_SCHEMA] }),
  execution_mode: Type.Literal('webhook'),
  webhook_url: Type.String(),
  webhook_secret_last4: Type.String({
    description: 'The last four characters of the signing secret; the secret itself is shown only once.',
    examples: ['k3Jd'],
  }),
  timeout_ms: Type.Integer({ examples: [DEFAULT_TIMEOUT_MS] }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const CustomFunction = Type.Object(fields, { $id: 'CustomFunction', title: 'CustomFunction' });

export const FunctionScenario = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), attached_at: Timestamp },
  { $id: 'CustomFunctionScenario', title: 'CustomFunctionScenario' },
);

export const CustomFunctionWithScenarios = Type.Object(
  { ...fields, scenarios: Type.Array(FunctionScenario) },
  { $id: 'CustomFunctionWithScenarios', title: 'CustomFunctionWithScenarios' },
);

export const CustomFunctionWithSecret = Type.Object(
  {
    ...fields,
    webhook_secret: Type.String({
      description: 'The signing secret. Returned only by create and rotate-secret: store it now.',
      examples: ['whsec_3q2v0aH9cYkq7RZr0b1m1yPZl2X5n8dS'],
    }),
  },
  { $id: 'CustomFunctionWithSecret', title: 'CustomFunctionWithSecret' },
);

export const ScenarioCustomFunction = Type.Object(
  { ...fields, attached_at: Timestamp },
  { $id: 'ScenarioCustomFunction', title: 'ScenarioCustomFunction' },
);

export const CreateCustomFunctionBody = Type.Object(
  {
    name,
    description: Type.Optional(description),
    parameters_schema: Type.Optional(parametersSchema),
    execution_mode: Type.Optional(executionMode),
    webhook_url: webhookUrl,
    webhook_secret: Type.Optional(webhookSecret),
    timeout_ms: Type.Optional(timeoutMs),
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);

export const UpdateCustomFunctionBody = Type.Object(
  {
    name: Type.Optional(name),
    description: Type.Optional(description),
    parameters_schema: Type.Optional(parametersSchema),
    execution_mode: Type.Optional(executionMode),
    webhook_url: Type.Optional(webhookUrl),
    webhook_secret: Type.Optional(webhookSecret),
    timeout_ms: Type.Optional(timeoutMs),
  },
  { additionalProperties: false, examples: [{ timeout_ms: 8000 }] },
);

export const FunctionIdParams = Type.Object({
  id: Type.String({ description: 'Custom function id (UUID).' }),
});
export const ScenarioIdParams = Type.Object({
  scenarioId: Type.String({ description: 'Scenario id (UUID).' }),
});
export const AttachmentParams = Type.Object({
  scenarioId: Type.String({ description: 'Scenario id (UUID).' }),
  functionId: Type.String({ description: 'Custom function id (UUID).' }),
});

export const TestCustomFunctionBody = Type.Object(
  {
    arguments: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'The arguments, as the persona would pass them (`data.arguments` of the call body).',
      },
    ),
  },
  { additionalProperties: false, examples: [{ arguments: { order_id: '42' } }] },
);

export const CustomFunctionTestResult = Type.Object(
  {
    ok: Type.Boolean({
      description:
        'The receiver answered 2xx with JSON within the limits: a meeting’s persona would get this answer.',
    }),
    status: Nullable(
      Type.Integer({ description: 'The receiver’s HTTP status; null when it never answered.' }),
    ),
    duration_ms: Type.Integer(),
    response_body: Nullable(
      Type.String({
        description: 'What the receiver answered, at most 8192 characters; null when it never answered.',
      }),
    ),
    response_truncated: Type.Boolean(),
    error: Nullable(
      Type.String({
        description:
          'Why a meeting would get an error result instead: `http_error`, `timeout`, `network_error` or `invalid_response`, with the reason.',
        examples: ['http_error: The function answered HTTP 401.'],
      }),
    ),
  },
  { $id: 'CustomFunctionTestResult', title: 'CustomFunctionTestResult' },
);
