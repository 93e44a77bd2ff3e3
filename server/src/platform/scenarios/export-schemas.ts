// The scenario export document (GET /scenarios/{id}/export, the body of POST /scenarios/import)
// and the answer of an import.
import { type Static, Type } from 'typebox';
import { Nullable } from '../../core/http/schemas.ts';
import { MAX_DESCRIPTION as MAX_FUNCTION_DESCRIPTION } from '../custom-functions/schemas.ts';
import { CreateGoalBody } from '../goals/schemas.ts';
import { CreatePersonaBody } from '../personas/schemas.ts';
import {
  CustomAgentConfig,
  DESCRIPTION_MAX,
  MeetingControlsInput,
  NAME_MAX,
  PROMPT_MAX,
  ScenarioType,
  SessionOptionsInput,
  Visibility,
  WELCOME_MAX,
} from './schemas.ts';

export const EXPORT_FORMAT = 'understudy.scenario';
export const EXPORT_VERSION = 1;

const GUARDRAIL_NAME = '^[a-zA-Z0-9_-]{1,64}$';

const ExportedGoal = Type.Object(
  {
    name: CreateGoalBody.properties.name,
    description: CreateGoalBody.properties.description,
    instructions: CreateGoalBody.properties.instructions,
    metrics: CreateGoalBody.properties.metrics,
    active: CreateGoalBody.properties.active,
  },
  { additionalProperties: false },
);

const ExportedGuardrail = Type.Object(
  {
    guardrail_name: Type.String({ pattern: GUARDRAIL_NAME }),
    guardrail_prompt: Type.String({ minLength: 1, maxLength: 10_000 }),
    active: Type.Optional(Type.Boolean()),
    attachment_active: Type.Optional(Type.Boolean()),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

const ExportedCustomFunction = Type.Object(
  {
    name: Type.String({ pattern: GUARDRAIL_NAME }),
    description: Type.Optional(Type.String({ maxLength: MAX_FUNCTION_DESCRIPTION })),
    parameters_schema: Type.Object({}, { additionalProperties: true }),
    execution_mode: Type.Optional(Type.Literal('webhook')),
    webhook_url: Type.String({ maxLength: 2048 }),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000 })),
  },
  { additionalProperties: false },
);

export const ScenarioExport = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Literal(EXPORT_VERSION),
    exported_at: Type.Optional(Type.String()),
    scenario: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
        type: ScenarioType,
        prompt: Type.String({ maxLength: PROMPT_MAX }),
        description: Nullable(Type.String({ maxLength: DESCRIPTION_MAX })),
        call_duration: Type.Integer({ minimum: 1, maximum: 240 }),
        welcome_message: Nullable(Type.String({ maxLength: WELCOME_MAX })),
        visibility: Visibility,
        custom_agent_enabled: Type.Boolean(),
        custom_agent_config: Nullable(
          Type.Object(
            {
              base_url: CustomAgentConfig.properties.base_url,
              model: CustomAgentConfig.properties.model,
              timeout_s: Type.Integer({ minimum: 1, maximum: 30 }),
              extra_headers: CustomAgentConfig.properties.extra_headers,
            },
            { additionalProperties: false },
          ),
        ),
        meeting_controls: MeetingControlsInput,
        session_options: SessionOptionsInput,
      },
      { additionalProperties: false },
    ),
    persona: Type.Object(
      {
        ...CreatePersonaBody.properties,
        voice_id: Type.String(),
        avatar_id: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
    goals: Type.Array(ExportedGoal, { maxItems: 100 }),
    guardrails: Type.Array(ExportedGuardrail, { maxItems: 100 }),
    custom_functions: Type.Array(ExportedCustomFunction, { maxItems: 100 }),
  },
  {
    additionalProperties: false,
    $id: 'ScenarioExport',
    title: 'ScenarioExport',
    examples: [
      {
        format: 'understudy.scenario',
        version: 1,
        exported_at: '2026-11-01T12:00:00.000Z',
        scenario: {
          name: 'Discovery call with a sceptical buyer',
          type: 'roleplay',
          prompt:
            '## Conversation flow\n1. What did you want to talk to me about?\n2. Why would we change what we do today?',
          description: 'Practise discovery with a busy operations director.',
          call_duration: 20,
          welcome_message: null,
          visibility: 'public',
          custom_agent_enabled: false,
          custom_agent_config: null,
          meeting_controls: {
            allow_participant_end: true,
            idle_timeout_seconds: 300,
            show_timer: true,
            agent_fallback: 'auto',
            share_results_with_participant: false,
          },
          session_options: {
            recording_enabled: true,
            recording_consent_required: false,
            memory_enabled: false,
            notification_emails: [],
            language: 'en',
          },
        },
        persona: {
          name: 'Dana Whitfield',
          job_title: 'Operations Director',
          demeanor: 'critical',
          background: 'Has seen many vendors overpromise.',
          gender: 'female',
          voice_id: '6f1c2b0a-3d4e-4a51-9b6c-0a1b2c3d4e01',
          avatar_id: null,
        },
        goals: [
          {
            name: 'Discovery',
            description: 'Asked about the buyer’s situation before pitching.',
            instructions: 'Score 1-10. 9-10: open questions with follow-ups. 1-4: pitched without asking.',
            metrics: null,
            active: true,
          },
        ],
        guardrails: [
          {
            guardrail_name: 'no-pricing-promises',
            guardrail_prompt: 'Never agree to a discount.',
            active: true,
            attachment_active: true,
            position: 0,
          },
        ],
        custom_functions: [],
      },
    ],
    description:
      'A scenario with its persona, goals, guardrails and custom functions. Holds no secret: no custom agent API key, no webhook or function signing secret.',
  },
);
export type ScenarioExport = Static<typeof ScenarioExport>;

export const ImportResult = Type.Object({
  success: Type.Literal(true),
  scenario_id: Type.String(),
  reused: Type.Object({
    guardrails: Type.Array(Type.String(), {
      description: 'Existing guardrails (same name) attached instead of created.',
    }),
    custom_functions: Type.Array(Type.String(), {
      description: 'Existing custom functions (same name) attached instead of created.',
    }),
  }),
  custom_function_secrets: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), webhook_secret: Type.String() }),
    { description: 'Signing secrets generated for the custom functions created; shown only here.' },
  ),
  warnings: Type.Array(Type.String()),
});
