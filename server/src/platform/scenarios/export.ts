// GET /scenarios/{id}/export and POST /scenarios/import: a self-contained, secret-free JSON
// document of one scenario and everything it uses, re-created with new ids in any workspace.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { OutboundPolicy } from '../../core/outbound/address-policy.ts';
import { customFunctionRepository } from '../custom-functions/repository.ts';
import { functionInputProblems } from '../custom-functions/service.ts';
import { goalLinks } from '../goals/repository.ts';
import type { GoalService } from '../goals/service.ts';
import { guardrailRepository } from '../guardrails/repository.ts';
import { refuseBlankPrompt } from '../guardrails/service.ts';
import type { PersonaService } from '../personas/service.ts';
import { principalOwner } from '../personas/service.ts';
import { openExtraHeaders } from './custom-agent.ts';
import { scenarioExportRepository } from './export-repository.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type ScenarioExport } from './export-schemas.ts';
import type { ScenarioService } from './service.ts';
import { renderControls, renderSessionOptions } from './service.ts';

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
              // In clear, as guardrail prompts are: the export is meant to be imported elsewhere.
              extra_headers: openExtraHeaders(row.custom_agent_extra_headers, secretBox),
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
