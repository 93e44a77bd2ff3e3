// GET /scenarios/{id}/export and POST /scenarios/import: a self-contained, secret-free JSON
// document of one scenario and everything it uses, re-created with new ids in any workspace.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import { Nullable } from '../../core/http/schemas.ts';
import type { OutboundPolicy } from '../../core/outbound/address-policy.ts';
import { customFunctionRepository } from '../custom-functions/repository.ts';
import { MAX_DESCRIPTION as MAX_FUNCTION_DESCRIPTION } from '../custom-functions/schemas.ts';
import { functionInputProblems } from '../custom-functions/service.ts';
import { goalLinks } from '../goals/repository.ts';
import { CreateGoalBody } from '../goals/schemas.ts';
import type { GoalService } from '../goals/service.ts';
import { guardrailRepository } from '../guardrails/repository.ts';
import { refuseBlankPrompt } from '../guardrails/service.ts';
import { CreatePersonaBody } from '../personas/schemas.ts';
import type { PersonaService } from '../personas/service.ts';
import { principalOwner } from '../personas/service.ts';
import { scenarioExportRepository } from './export-repository.ts';
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
import type { ScenarioService } from './service.ts';
import { renderControls, renderSessionOptions } from './service.ts';

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
          meeting_controls: { allow_participant_end: true, idle_timeout_seconds: 300, show_timer: true },
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

export interface ExportDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  personas: PersonaService;
  goals: GoalService;
  scenarios: ScenarioService;
  outboundPolicy: OutboundPolicy;
}

export class ScenarioTransfer {
  constructor(private readonly deps: ExportDeps) {}

  async export(principal: Principal, id: string): Promise<ScenarioExport> {
    const { db, secretBox } = this.deps;
    const row = await this.deps.scenarios.find(db, principal.accountId, id);
    const [persona] = row.persona_id
      ? await this.deps.personas.findMany(db, principal.accountId, [row.persona_id])
      : [];
    const goals = await goalLinks.goalsOf(db, principal.accountId, [row.id]);
    const guardrails = await scenarioExportRepository.attachedGuardrails(db, principal.accountId, row.id);
    const functions = await scenarioExportRepository.attachedFunctions(db, principal.accountId, row.id);
    const options = renderSessionOptions(row);
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: this.deps.clock.now().toISOString(),
      scenario: {
        name: row.name,
        type: row.type,
        prompt: row.prompt,
        description: row.description,
        call_duration: row.call_duration,
        // A generated opening is regenerated on import, so it follows the imported persona.
        welcome_message: row.welcome_message_generated ? null : row.welcome_message,
        visibility: row.visibility,
        custom_agent_enabled: row.custom_agent_enabled,
        custom_agent_config: row.custom_agent_base_url
          ? {
              base_url: row.custom_agent_base_url,
              model: row.custom_agent_model,
              timeout_s: row.custom_agent_timeout_s,
              extra_headers: { ...(row.custom_agent_extra_headers ?? {}) },
            }
          : null,
        meeting_controls: renderControls(row),
        session_options: {
          recording_enabled: options.recording_enabled,
          recording_consent_required: options.recording_consent_required,
          memory_enabled: options.memory_enabled,
          notification_emails: options.notification_emails,
          language: options.language,
        },
      },
      persona: persona
        ? {
            name: persona.name,
            job_title: persona.job_title,
            demeanor: persona.demeanor,
            background: persona.background,
            gender: persona.gender,
            voice_id: persona.voice_id,
            avatar_id: persona.avatar_id,
          }
        : {
            name: 'Host',
            job_title: 'Host',
            demeanor: 'neutral',
            background: null,
            gender: null,
            voice_id: '',
            avatar_id: null,
          },
      goals: goals.map((goal) => ({
        name: goal.name,
        description: goal.description,
        instructions: goal.instructions,
        metrics: goal.metrics ?? null,
        active: goal.active,
      })),
      guardrails: guardrails.map((guardrail) => ({
        guardrail_name: guardrail.guardrail_name,
        guardrail_prompt: secretBox.open(guardrail.prompt_sealed),
        active: guardrail.active,
        attachment_active: guardrail.attachment_active,
        position: guardrail.position,
      })),
      custom_functions: functions.map((fn) => ({
        name: fn.name,
        description: fn.description,
        parameters_schema: fn.parameters_schema,
        execution_mode: fn.execution_mode,
        webhook_url: fn.webhook_url,
        timeout_ms: fn.timeout_ms,
      })),
    };
  }

  /**
   * Re-creates an export in the caller's workspace, in one transaction: a new persona, new goals
   * and a new scenario. Guardrails and custom functions are account-wide and named uniquely, so
   * one whose name already exists is attached as it is (and reported in `reused`); the others
   * are created, custom functions with a freshly generated signing secret returned once.
   */
  async import(principal: Principal, doc: ScenarioExport) {
    const { db, clock, secretBox } = this.deps;
    const owner = principalOwner(principal);
    const warnings: string[] = [];
    const reused = { guardrails: [] as string[], custom_functions: [] as string[] };
    const secrets: { id: string; name: string; webhook_secret: string }[] = [];
    const scenarioId = await db.transaction().execute(async (tx) => {
      const now = clock.now();
      const { voice_id: voiceId, ...personaFields } = doc.persona;
      const persona = await this.deps.personas.insert(
        tx,
        owner,
        { ...personaFields, ...(voiceId ? { voice_id: voiceId } : {}) },
        'persona.',
      );
      const goalIds: string[] = [];
      for (const [index, goal] of doc.goals.entries()) {
        goalIds.push((await this.deps.goals.insert(tx, owner, goal, `goals[${index}].`)).id);
      }
      const { custom_agent_config: agent, ...scenario } = doc.scenario;
      if (scenario.custom_agent_enabled) {
        warnings.push(
          'The custom agent API key is not exported: set custom_agent_config.api_key if your endpoint needs one.',
        );
      }
      const row = await withParamPrefix('scenario.', () =>
        this.deps.scenarios.insert(tx, owner, {
          ...scenario,
          persona_id: persona.id,
          goals: goalIds,
          custom_agent_config: agent,
        }),
      );

      for (const [index, guardrail] of doc.guardrails.entries()) {
        const existing = await scenarioExportRepository.guardrailNamed(
          tx,
          owner.accountId,
          guardrail.guardrail_name,
        );
        let guardrailId = existing?.id;
        if (existing) {
          reused.guardrails.push(existing.id);
          if (secretBox.open(existing.prompt_sealed) !== guardrail.guardrail_prompt) {
            warnings.push(
              `Guardrail "${guardrail.guardrail_name}" already exists with a different prompt; the existing one was attached.`,
            );
          }
        } else {
          refuseBlankPrompt(guardrail.guardrail_prompt, `guardrails[${index}].guardrail_prompt`);
          guardrailId = randomUUID();
          await guardrailRepository.insert(tx, {
            id: guardrailId,
            account_id: owner.accountId,
            membership_id: owner.membershipId,
            guardrail_name: guardrail.guardrail_name,
            prompt_sealed: secretBox.seal(guardrail.guardrail_prompt),
            active: guardrail.active ?? true,
            created_at: now,
            updated_at: now,
          });
        }
        await scenarioExportRepository.attachGuardrailOnce(tx, {
          scenario_id: row.id,
          guardrail_id: guardrailId!,
          account_id: owner.accountId,
          active: guardrail.attachment_active ?? true,
          position: guardrail.position ?? index,
          attached_at: now,
          updated_at: now,
        });
      }

      for (const [index, fn] of doc.custom_functions.entries()) {
        const existing = await customFunctionRepository.findByName(tx, owner.accountId, fn.name);
        let functionId = existing?.id;
        if (existing) reused.custom_functions.push(existing.id);
        else {
          // The same rules as POST /custom-functions.
          const [problem] = functionInputProblems(
            { ...fn, parameters_schema: fn.parameters_schema as Record<string, unknown> },
            this.deps.outboundPolicy,
          );
          if (problem) throw invalidParam(`custom_functions[${index}].${problem.param}`, problem.message);
          functionId = randomUUID();
          const secret = prefixedSecret('whsec_', 24);
          await customFunctionRepository.insert(tx, {
            id: functionId,
            account_id: owner.accountId,
            membership_id: owner.membershipId,
            name: fn.name,
            description: fn.description ?? '',
            parameters_schema: JSON.stringify(fn.parameters_schema),
            execution_mode: 'webhook',
            webhook_url: fn.webhook_url,
            webhook_secret_sealed: secretBox.seal(secret),
            webhook_secret_last4: secret.slice(-4),
            timeout_ms: fn.timeout_ms ?? 5000,
            created_at: now,
            updated_at: now,
          });
          secrets.push({ id: functionId, name: fn.name, webhook_secret: secret });
        }
        await customFunctionRepository.attach(tx, {
          scenario_id: row.id,
          function_id: functionId!,
          account_id: owner.accountId,
          attached_at: now,
        });
      }
      return row.id;
    });
    return {
      success: true as const,
      scenario_id: scenarioId,
      data: await this.deps.scenarios.get(principal, scenarioId),
      reused,
      custom_function_secrets: secrets,
      warnings,
    };
  }
}

/**
 * The scenario service names a field as it sits in a create body (`name`); in an import document
 * it sits under `scenario`, so its errors are renamed to point there (`scenario.name`).
 */
async function withParamPrefix<T>(prefix: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AppError) || !error.param) throw error;
    throw new AppError(error.code, error.message, {
      param: `${prefix}${error.param}`,
      headers: error.headers,
      errors: error.errors?.map((item) => ({ ...item, param: `${prefix}${item.param}` })),
      cause: error,
    });
  }
}
