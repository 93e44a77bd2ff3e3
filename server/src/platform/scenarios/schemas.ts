import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';
import { Goal } from '../goals/schemas.ts';
import { Persona } from '../personas/schemas.ts';

export const SCENARIO_TYPES = ['interview', 'roleplay', 'upskill', 'brainstorm'] as const;
export const NAME_MAX = 200;
export const PROMPT_MAX = 50_000;
export const DESCRIPTION_MAX = 2000;
export const WELCOME_MAX = 2000;
export const NOTIFICATION_EMAILS_MAX = 10;
export const DEFAULT_CALL_DURATION = 30;

export const ScenarioType = Type.Enum(SCENARIO_TYPES, {
  description: 'interview, roleplay, upskill or brainstorm.',
});
export const Visibility = Type.Union([Type.Literal('public'), Type.Literal('restricted')], {
  description: '`public` (embeddable) or `restricted` (invite-only). Default `public`.',
});
export const DefaultKind = Nullable(
  Type.Union([Type.Literal('plus_one'), Type.Literal('requirement_gathering')], {
    description: 'Read-only marker of the two scenarios seeded into every account; null for yours.',
  }),
);

const ExtraHeaders = Type.Record(Type.String(), Type.String(), {
  description:
    'Additional request headers. Host, Authorization and X-Internal-* are refused. Values are stored encrypted and reads show them masked (`****abcd`); a masked value sent back unchanged keeps the stored one.',
  examples: [{ 'X-Tenant': 'acme' }],
});

const agentFields = {
  base_url: Type.String({
    maxLength: 2048,
    description: 'Public HTTPS API root of your endpoint (the part before /chat/completions).',
    examples: ['https://agent.example.com/v1'],
  }),
  api_key: Nullable(
    Type.String({
      maxLength: 1000,
      description: 'Sent as `Authorization: Bearer …`. Stored encrypted; reads show it masked (`****abcd`).',
    }),
  ),
  model: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Passed through as `model`. Default `waterr-agent`.',
  }),
  timeout_s: Type.Integer({
    minimum: 1,
    maximum: 30,
    description: 'First-response budget per completion in seconds; default 10, at most 30.',
  }),
  extra_headers: ExtraHeaders,
};

export const CustomAgentConfigCreate = Type.Object(
  {
    base_url: agentFields.base_url,
    api_key: Type.Optional(agentFields.api_key),
    model: Type.Optional(agentFields.model),
    timeout_s: Type.Optional(agentFields.timeout_s),
    extra_headers: Type.Optional(agentFields.extra_headers),
  },
  { additionalProperties: false },
);

export const CustomAgentConfigUpdate = Type.Object(
  {
    base_url: Type.Optional(agentFields.base_url),
    api_key: Type.Optional(agentFields.api_key),
    model: Type.Optional(agentFields.model),
    timeout_s: Type.Optional(agentFields.timeout_s),
    extra_headers: Type.Optional(agentFields.extra_headers),
  },
  {
    additionalProperties: false,
    description:
      'Merged into the stored configuration: fields left out keep their value; `api_key: null` removes the key.',
  },
);

export const CustomAgentConfig = Type.Object(
  {
    base_url: Type.String(),
    api_key: Nullable(Type.String({ examples: ['****abcd'] })),
    model: Type.String(),
    timeout_s: Type.Integer(),
    extra_headers: ExtraHeaders,
  },
  { $id: 'CustomAgentConfig', title: 'CustomAgentConfig' },
);

const controlFields = {
  allow_participant_end: Type.Boolean({
    description: 'The participant may end the call from the room. Default true.',
  }),
  idle_timeout_seconds: Type.Integer({
    minimum: 30,
    maximum: 3600,
    description: 'The call ends after this long with nobody speaking. Default 300.',
  }),
  show_timer: Type.Boolean({ description: 'The room shows the remaining time. Default true.' }),
  agent_fallback: Type.Enum(['auto', 'offline', 'apology'], {
    description:
      'Who answers a turn when the reply provider (the platform LLM or the custom agent) fails after its retry: ' +
      '`offline` (the embedded script engine answers that turn), `apology` (the persona apologises and the next ' +
      'utterance asks the provider again), or `auto` (offline for the platform LLM, apology for a custom agent). ' +
      'Default `auto`.',
  }),
  share_results_with_participant: Type.Boolean({
    description:
      'Once the meeting has ended and its analysis is complete, the participant’s meeting page (opened with the room token) shows their results: the score per goal, strengths, growth areas and what to practise next (`GET /v1/rooms/{meetingId}/results`). Goals stay hidden during the call whatever this says. Default false.',
  }),
};

export const MeetingControlsInput = Type.Object(
  {
    allow_participant_end: Type.Optional(controlFields.allow_participant_end),
    idle_timeout_seconds: Type.Optional(controlFields.idle_timeout_seconds),
    show_timer: Type.Optional(controlFields.show_timer),
    agent_fallback: Type.Optional(controlFields.agent_fallback),
    share_results_with_participant: Type.Optional(controlFields.share_results_with_participant),
  },
  { additionalProperties: false, description: 'Merged into the stored controls.' },
);

export const MeetingControls = Type.Object(controlFields, {
  $id: 'MeetingControls',
  title: 'MeetingControls',
});

const optionFields = {
  recording_enabled: Type.Boolean({ description: 'Record the call. Default true.' }),
  recording_consent_required: Type.Boolean({
    description:
      'The participant must consent before the call starts. Default false through the API; scenarios made in the dashboard ask it (docs/decisions/0011-recording-consent-by-default.md). Recommended wherever recording needs consent.',
  }),
  memory_enabled: Type.Boolean({
    description: 'Read and write memories for the participant. Default false.',
  }),
  notification_emails: Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
    maxItems: NOTIFICATION_EMAILS_MAX,
    description: 'Who is emailed when a meeting ends (at most 10).',
  }),
  language: Type.String({
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$',
    maxLength: 35,
    description: 'BCP 47 language of the conversation. Default `en`.',
    examples: ['en', 'en-GB', 'de'],
  }),
};

export const SessionOptionsInput = Type.Object(
  {
    recording_enabled: Type.Optional(optionFields.recording_enabled),
    recording_consent_required: Type.Optional(optionFields.recording_consent_required),
    memory_enabled: Type.Optional(optionFields.memory_enabled),
    notification_emails: Type.Optional(optionFields.notification_emails),
    language: Type.Optional(optionFields.language),
  },
  {
    additionalProperties: false,
    description:
      'Merged into the stored options. The legacy webhook_url is set through PUT /scenarios/{id}/session-options.',
  },
);

export const SessionOptions = Type.Object(
  {
    webhook_url: Nullable(Type.String({ description: 'Legacy per-scenario webhook (until 2026-09-25).' })),
    ...optionFields,
  },
  { $id: 'SessionOptions', title: 'SessionOptions' },
);

export const UpdateSessionOptionsBody = Type.Object(
  {
    webhook_url: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2048,
          description: 'Legacy per-scenario webhook; HTTPS required in production; null removes it.',
        }),
      ),
    ),
    ...SessionOptionsInput.properties,
  },
  {
    additionalProperties: false,
    examples: [
      { webhook_url: 'https://hooks.example.com/understudy', notification_emails: ['coach@example.com'] },
    ],
  },
);

export const SessionOptionsResponse = Type.Object({
  ...SessionOptions.properties,
  webhook_secret: Type.Optional(
    Type.String({
      description: 'The `whsec_` signing secret, returned only by the response that first sets webhook_url.',
      examples: ['whsec_3q2v0aH9cYkq7RZr0b1m1yPZl2X5n8dS'],
    }),
  ),
});

const bodyFields = {
  name: Type.String({
    minLength: 1,
    maxLength: NAME_MAX,
    description: 'Shown in the dashboard and to participants.',
  }),
  type: ScenarioType,
  persona_id: Type.String({ description: 'A persona of this workspace.' }),
  prompt: Type.String({ maxLength: PROMPT_MAX, description: 'The meeting script; Markdown allowed.' }),
  description: Nullable(Type.String({ maxLength: DESCRIPTION_MAX, description: 'Shown on the join page.' })),
  call_duration: Type.Integer({
    minimum: 1,
    maximum: 240,
    description: 'Maximum length in minutes; default 30.',
  }),
  welcome_message: Nullable(
    Type.String({
      maxLength: WELCOME_MAX,
      description: 'The opening line. Omitted or null: generated from the persona and the script.',
    }),
  ),
  visibility: Visibility,
  goals: Type.Array(Type.String(), { maxItems: 100, description: 'Goal ids scored after each meeting.' }),
  custom_agent_enabled: Type.Boolean({ description: 'Use your own agent endpoint for every meeting.' }),
};

const createExample = {
  name: 'Senior backend engineer — technical screen',
  type: 'interview',
  persona_id: '3a6f9f3e-2a1b-4c5d-8e9f-0a1b2c3d4e5f',
  prompt:
    '## Interview flow\n1. Ask the candidate to introduce themselves.\n2. Ask about a system they designed end to end.\n3. Ask how they handle a production incident.\n\n## Rules\n- Keep questions short.',
  description: 'A 20-minute technical screen.',
  call_duration: 20,
  visibility: 'restricted',
  goals: ['c0ffee00-1234-4abc-9def-000000000001'],
  custom_agent_enabled: false,
  session_options: { recording_enabled: true, language: 'en' },
};

export const CreateScenarioBody = Type.Object(
  {
    name: bodyFields.name,
    type: bodyFields.type,
    persona_id: bodyFields.persona_id,
    prompt: Type.Optional(bodyFields.prompt),
    description: Type.Optional(bodyFields.description),
    call_duration: Type.Optional(bodyFields.call_duration),
    welcome_message: Type.Optional(bodyFields.welcome_message),
    visibility: Type.Optional(bodyFields.visibility),
    goals: Type.Optional(bodyFields.goals),
    custom_agent_enabled: Type.Optional(bodyFields.custom_agent_enabled),
    custom_agent_config: Type.Optional(Nullable(CustomAgentConfigCreate)),
    meeting_controls: Type.Optional(MeetingControlsInput),
    session_options: Type.Optional(SessionOptionsInput),
  },
  { additionalProperties: false, examples: [createExample] },
);

export const UpdateScenarioBody = Type.Object(
  {
    name: Type.Optional(bodyFields.name),
    type: Type.Optional(bodyFields.type),
    persona_id: Type.Optional(bodyFields.persona_id),
    prompt: Type.Optional(bodyFields.prompt),
    description: Type.Optional(bodyFields.description),
    call_duration: Type.Optional(bodyFields.call_duration),
    welcome_message: Type.Optional(bodyFields.welcome_message),
    visibility: Type.Optional(bodyFields.visibility),
    goals: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description: 'Replaces the scenario’s goals (in this order).',
      }),
    ),
    custom_agent_enabled: Type.Optional(bodyFields.custom_agent_enabled),
    custom_agent_config: Type.Optional(Nullable(CustomAgentConfigUpdate)),
    meeting_controls: Type.Optional(MeetingControlsInput),
    session_options: Type.Optional(SessionOptionsInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        custom_agent_enabled: true,
        custom_agent_config: {
          base_url: 'https://agent.example.com/v1',
          api_key: 'sk-live-0123456789abcd',
          model: 'my-agent',
          timeout_s: 15,
          extra_headers: { 'X-Tenant': 'acme' },
        },
      },
    ],
  },
);

/** A guardrail attached to the scenario: names and switches only, never the prompt. */
export const ScenarioGuardrailSummary = Type.Object(
  {
    id: Type.String(),
    guardrail_name: Type.String(),
    active: Type.Boolean({ description: 'The guardrail’s account-level switch.' }),
    attachment_active: Type.Boolean({ description: 'The switch of this scenario’s attachment.' }),
    position: Type.Integer({ description: 'Order in the guardrails block, lower first.' }),
  },
  { $id: 'ScenarioGuardrailSummary', title: 'ScenarioGuardrailSummary' },
);

/** A custom function attached to the scenario (never its secret). */
export const ScenarioCustomFunctionSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    parameters_schema: Type.Object({}, { additionalProperties: true }),
    execution_mode: Type.Literal('webhook'),
    webhook_url: Type.String(),
    timeout_ms: Type.Integer(),
    attached_at: Timestamp,
  },
  { $id: 'ScenarioCustomFunctionSummary', title: 'ScenarioCustomFunctionSummary' },
);

export const ScenarioSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: ScenarioType,
    persona_id: Nullable(Type.String()),
    description: Nullable(Type.String()),
    call_duration: Type.Integer(),
    welcome_message: Type.String(),
    visibility: Visibility,
    goals: Type.Array(Type.String()),
    default_kind: DefaultKind,
    custom_agent_enabled: Type.Boolean(),
    Persona: Nullable(Persona),
    membership_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ScenarioSummary', title: 'ScenarioSummary' },
);

export const Scenario = Type.Object(
  {
    ...ScenarioSummary.properties,
    prompt: Type.String(),
    custom_agent_config: Nullable(CustomAgentConfig),
    Goals: Type.Array(Goal),
    guardrails: Type.Array(ScenarioGuardrailSummary),
    custom_functions: Type.Array(ScenarioCustomFunctionSummary),
    meeting_controls: MeetingControls,
    session_options: SessionOptions,
  },
  { $id: 'Scenario', title: 'Scenario' },
);

export const ScenarioMeeting = Type.Object(
  {
    id: Type.String(),
    scenario_id: Type.String(),
    person_name: Nullable(Type.String()),
    status: Type.String({ examples: ['ended'] }),
    analysis_status: Type.String({ examples: ['completed'] }),
    created_at: Timestamp,
    ended_at: Nullable(Timestamp),
    duration_seconds: Nullable(Type.Integer()),
  },
  { $id: 'ScenarioMeeting', title: 'ScenarioMeeting' },
);
