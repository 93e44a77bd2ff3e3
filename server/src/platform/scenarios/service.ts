import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, invalidParam, notFound, requireText } from '../../core/http/errors.ts';
import { isUuid, requireUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { OutboundPolicy } from '../../core/outbound/address-policy.ts';
import { goalLinks } from '../goals/repository.ts';
import type { GoalService } from '../goals/service.ts';
import { generateWelcomeMessage } from '../live/providers/offline-script/welcome.ts';
import type { PersonaRow } from '../personas/repository.ts';
import { type Owner, type PersonaService, principalOwner } from '../personas/service.ts';
import { scenarioAttachments } from './attachments.ts';
import {
  type CustomAgentConfigInput,
  columnsOf,
  mergeCustomAgent,
  renderCustomAgent,
} from './custom-agent.ts';
import { scenarioRepository as repo, type ScenarioRow } from './repository.ts';
import type { DefaultKind, MeetingControls, ScenarioType } from './tables.ts';

const LIST = 'scenarios';
const MEETINGS_LIST = 'scenario_meetings';

export const DEFAULT_MEETING_CONTROLS: Readonly<MeetingControls> = Object.freeze({
  allow_participant_end: true,
  idle_timeout_seconds: 300,
  show_timer: true,
  agent_fallback: 'auto',
  share_results_with_participant: false,
});

export interface SessionOptionsInput {
  recording_enabled?: boolean;
  recording_consent_required?: boolean;
  memory_enabled?: boolean;
  notification_emails?: string[];
  language?: string;
}

export interface ScenarioInput {
  name: string;
  type: ScenarioType;
  persona_id: string;
  prompt?: string;
  description?: string | null;
  call_duration?: number;
  welcome_message?: string | null;
  visibility?: 'public' | 'restricted';
  goals?: string[];
  custom_agent_enabled?: boolean;
  custom_agent_config?: CustomAgentConfigInput | null;
  meeting_controls?: Partial<MeetingControls>;
  session_options?: SessionOptionsInput;
}

export type ScenarioPatch = Partial<ScenarioInput>;

export interface ScenarioDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  paginator: Paginator;
  personas: PersonaService;
  goals: GoalService;
  outboundPolicy: OutboundPolicy;
  appEnv: 'development' | 'production';
  /** From then on the legacy per-scenario webhook sends nothing, so setting one is refused. */
  legacyWebhookSunset: Date;
}

export type RenderedScenario = Awaited<ReturnType<ScenarioService['render']>>;

export class ScenarioService {
  constructor(private readonly deps: ScenarioDeps) {}

  // ---- reads

  paginate(query: PageQuery, principal: Principal): PageRequest | null {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  async list(principal: Principal, page: PageRequest | null) {
    const { db, paginator } = this.deps;
    const rows = await repo.list(db, principal.accountId, page);
    const kept = page ? rows.slice(0, page.limit) : rows;
    const summaries = new Map((await this.summaries(db, principal.accountId, kept)).map((s) => [s.id, s]));
    if (!page) return { data: kept.map((row) => summaries.get(row.id)!) };
    return paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) => summaries.get(row.id)!);
  }

  async get(principal: Principal, id: string) {
    return this.render(this.deps.db, await this.find(this.deps.db, principal.accountId, id));
  }

  /** The full scenario: prompt, Persona, Goals, guardrails, custom functions, controls and options. */
  async render(db: Kysely<DB>, row: ScenarioRow) {
    const [summary] = await this.summaries(db, row.account_id, [row]);
    const [goalRows, attachments] = await Promise.all([
      goalLinks.goalsOf(db, row.account_id, [row.id]),
      scenarioAttachments(db, row.account_id, row.id),
    ]);
    const goals = await this.deps.goals.renderMany(db, goalRows);
    return {
      ...summary!,
      prompt: row.prompt,
      custom_agent_config: renderCustomAgent(row, this.deps.secretBox),
      Goals: goals,
      guardrails: attachments.guardrails,
      custom_functions: attachments.custom_functions,
      meeting_controls: renderControls(row),
      session_options: renderSessionOptions(row),
    };
  }

  /** List items: everything but the prompt and the nested attachments (one query per kind). */
  private async summaries(db: Kysely<DB>, accountId: string, rows: ScenarioRow[]) {
    const personaIds = [
      ...new Set(rows.map((row) => row.persona_id).filter((id): id is string => id !== null)),
    ];
    const [personaRows, links] = await Promise.all([
      this.deps.personas.findMany(db, accountId, personaIds),
      goalLinks.goalsOf(
        db,
        accountId,
        rows.map((row) => row.id),
      ),
    ]);
    const personas = new Map(personaRows.map((persona) => [persona.id, this.deps.personas.render(persona)]));
    const goalIds = new Map<string, string[]>();
    for (const link of links)
      goalIds.set(link.link_scenario_id, [...(goalIds.get(link.link_scenario_id) ?? []), link.id]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      persona_id: row.persona_id,
      description: row.description,
      call_duration: row.call_duration,
      welcome_message: row.welcome_message,
      visibility: row.visibility,
      goals: goalIds.get(row.id) ?? [],
      default_kind: row.default_kind,
      custom_agent_enabled: row.custom_agent_enabled,
      Persona: row.persona_id ? (personas.get(row.persona_id) ?? null) : null,
      membership_id: row.membership_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
  }

  // ---- writes

  async create(principal: Principal, input: ScenarioInput) {
    const row = await this.deps.db
      .transaction()
      .execute((tx) => this.insert(tx, principalOwner(principal), input));
    return this.render(this.deps.db, row);
  }

  /**
   * Creates a scenario with the caller's executor (seeding, import and generation run it inside
   * their own transaction). `defaultKind` is only ever set by seeding.
   */
  async insert(
    db: Kysely<DB>,
    owner: Owner,
    input: ScenarioInput,
    options: { defaultKind?: DefaultKind; legacyWebhook?: { url: string; secret: string } } = {},
  ): Promise<ScenarioRow> {
    const persona = await this.personaOf(db, owner.accountId, input.persona_id);
    const goalIds = await this.deps.goals.resolveGoalIds(db, owner.accountId, input.goals ?? [], 'goals');
    const agent = mergeCustomAgent(null, input.custom_agent_config, this.agentDeps());
    const enabled = input.custom_agent_enabled ?? false;
    if (enabled && !agent?.custom_agent_base_url) throw agentNeedsBaseUrl();
    const prompt = input.prompt ?? '';
    const explicitWelcome = input.welcome_message?.trim();
    const now = this.deps.clock.now();
    const row = await repo.insert(db, {
      id: randomUUID(),
      account_id: owner.accountId,
      membership_id: owner.membershipId,
      name: requireText(input.name, 'name'),
      type: input.type,
      persona_id: persona.id,
      prompt,
      description: input.description ?? null,
      call_duration: input.call_duration ?? 30,
      welcome_message: explicitWelcome || welcomeFor(persona, input.name, input.type, prompt),
      welcome_message_generated: !explicitWelcome,
      visibility: input.visibility ?? 'public',
      default_kind: options.defaultKind ?? null,
      custom_agent_enabled: enabled,
      ...(agent ?? {}),
      meeting_controls: JSON.stringify({ ...DEFAULT_MEETING_CONTROLS, ...input.meeting_controls }),
      ...sessionColumns(input.session_options ?? {}),
      ...(options.legacyWebhook
        ? {
            legacy_webhook_url: options.legacyWebhook.url,
            legacy_webhook_secret: this.deps.secretBox.seal(options.legacyWebhook.secret),
          }
        : {}),
      created_at: now,
      updated_at: now,
    });
    await goalLinks.link(db, owner.accountId, row.id, goalIds, now);
    return row;
  }

  async update(principal: Principal, id: string, patch: ScenarioPatch) {
    const { accountId } = principal;
    const row = await this.deps.db.transaction().execute(async (tx) => {
      const current = await this.find(tx, accountId, id, true);
      const persona =
        patch.persona_id !== undefined
          ? await this.personaOf(tx, accountId, patch.persona_id)
          : current.persona_id
            ? await this.deps.personas.findMany(tx, accountId, [current.persona_id]).then((rows) => rows[0])
            : undefined;
      const goalIds =
        patch.goals !== undefined
          ? await this.deps.goals.resolveGoalIds(tx, accountId, patch.goals, 'goals')
          : undefined;
      const agent = mergeCustomAgent(columnsOf(current), patch.custom_agent_config, this.agentDeps());
      const enabled = patch.custom_agent_enabled ?? current.custom_agent_enabled;
      const baseUrl = agent ? agent.custom_agent_base_url : current.custom_agent_base_url;
      if (enabled && !baseUrl) throw agentNeedsBaseUrl();

      const name = patch.name !== undefined ? requireText(patch.name, 'name') : current.name;
      const type = patch.type ?? current.type;
      const prompt = patch.prompt ?? current.prompt;
      const values: Updateable<DB['scenarios']> = {
        name,
        type,
        persona_id: persona?.id,
        prompt,
        description: patch.description,
        call_duration: patch.call_duration,
        visibility: patch.visibility,
        custom_agent_enabled: patch.custom_agent_enabled,
        ...(agent ?? {}),
        ...(patch.meeting_controls
          ? { meeting_controls: JSON.stringify({ ...renderControls(current), ...patch.meeting_controls }) }
          : {}),
        ...sessionColumns(patch.session_options ?? {}),
        updated_at: this.deps.clock.now(),
      };
      const explicitWelcome = patch.welcome_message?.trim();
      if (explicitWelcome) {
        values.welcome_message = explicitWelcome;
        values.welcome_message_generated = false;
      } else if (
        patch.welcome_message !== undefined ||
        (current.welcome_message_generated &&
          (patch.name !== undefined ||
            patch.type !== undefined ||
            patch.prompt !== undefined ||
            patch.persona_id !== undefined))
      ) {
        // A generated opening follows the script, persona and name it was generated from.
        values.welcome_message = persona ? welcomeFor(persona, name, type, prompt) : current.welcome_message;
        values.welcome_message_generated = true;
      }
      const updated = await repo.update(tx, accountId, current.id, values);
      if (!updated) throw notFound('scenario');
      if (goalIds) await goalLinks.replace(tx, accountId, current.id, goalIds, this.deps.clock.now());
      return updated;
    });
    return this.render(this.deps.db, row);
  }

  /**
   * Soft delete: the scenario disappears from the API (404 from then on) while its meetings keep
   * pointing at it, so their reads still show the scenario they ran on.
   */
  async delete(principal: Principal, id: string) {
    const scenarioId = requireUuid(id, 'scenario');
    const row = await this.deps.db
      .transaction()
      .execute((tx) => repo.softDelete(tx, principal.accountId, scenarioId, this.deps.clock.now()));
    if (!row) throw notFound('scenario');
    return { id: row.id, object: 'scenario' as const, deleted: true as const };
  }

  /**
   * PUT /scenarios/{id}/session-options. The first time a webhook_url is set, a `whsec_` signing
   * secret is generated; it is returned in this response only. Removing the URL removes the secret.
   */
  async updateSessionOptions(
    principal: Principal,
    id: string,
    input: SessionOptionsInput & { webhook_url?: string | null },
  ) {
    const { accountId } = principal;
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await this.find(tx, accountId, id, true);
      const values: Updateable<DB['scenarios']> = {
        ...sessionColumns(input),
        updated_at: this.deps.clock.now(),
      };
      let secret: string | undefined;
      if (input.webhook_url === null) {
        values.legacy_webhook_url = null;
        values.legacy_webhook_secret = null;
      } else if (input.webhook_url !== undefined) {
        if (this.deps.clock.now() >= this.deps.legacyWebhookSunset) {
          throw legacyWebhookRetired(this.deps.legacyWebhookSunset);
        }
        values.legacy_webhook_url = this.checkWebhookUrl(input.webhook_url);
        if (!current.legacy_webhook_secret) {
          secret = prefixedSecret('whsec_', 24);
          values.legacy_webhook_secret = this.deps.secretBox.seal(secret);
        }
      }
      const updated = await repo.update(tx, accountId, current.id, values);
      if (!updated) throw notFound('scenario');
      return { ...renderSessionOptions(updated), ...(secret ? { webhook_secret: secret } : {}) };
    });
  }

  // ---- meetings of a scenario

  async meetings(principal: Principal, id: string, query: PageQuery) {
    const scenario = await this.find(this.deps.db, principal.accountId, id);
    const page = this.deps.paginator.parse(query, MEETINGS_LIST, principal.accountId);
    const rows = await repo.meetings(this.deps.db, principal.accountId, scenario.id, page);
    const render = (row: (typeof rows)[number]) => ({
      id: row.id,
      scenario_id: row.scenario_id,
      person_name: row.person_name,
      status: row.status,
      analysis_status: row.analysis_status,
      created_at: row.created_at.toISOString(),
      ended_at: row.ended_at ? row.ended_at.toISOString() : null,
      duration_seconds: row.duration_seconds,
    });
    if (!page) return { data: rows.map(render) };
    return this.deps.paginator.page(rows, page, MEETINGS_LIST, principal.accountId, positionOf, render);
  }

  // ---- helpers

  async find(db: Kysely<DB>, accountId: string, id: string, forUpdate = false): Promise<ScenarioRow> {
    const row = await repo.find(db, accountId, requireUuid(id, 'scenario'), { forUpdate });
    if (!row) throw notFound('scenario');
    return row;
  }

  private async personaOf(db: Kysely<DB>, accountId: string, id: string): Promise<PersonaRow> {
    const [persona] = isUuid(id) ? await this.deps.personas.findMany(db, accountId, [id.toLowerCase()]) : [];
    if (!persona) throw invalidParam('persona_id', `No such persona: ${id}.`);
    return persona;
  }

  private agentDeps() {
    return { secretBox: this.deps.secretBox, policy: this.deps.outboundPolicy };
  }

  checkWebhookUrl(raw: string, param = 'webhook_url'): string {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw invalidParam(param, 'webhook_url must be an absolute URL.');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw invalidParam(param, 'webhook_url must be an https URL.');
    if (url.protocol === 'http:' && this.deps.appEnv === 'production') {
      throw invalidParam(param, 'webhook_url must be an https URL.');
    }
    if (url.username || url.password) throw invalidParam(param, 'webhook_url must not contain credentials.');
    return url.toString();
  }
}

export function renderControls(row: ScenarioRow): MeetingControls {
  return { ...DEFAULT_MEETING_CONTROLS, ...(row.meeting_controls ?? {}) };
}

export function renderSessionOptions(row: ScenarioRow) {
  return {
    webhook_url: row.legacy_webhook_url,
    recording_enabled: row.recording_enabled,
    recording_consent_required: row.recording_consent_required,
    memory_enabled: row.memory_enabled,
    notification_emails: [...(row.notification_emails ?? [])],
    language: row.language,
  };
}

function sessionColumns(input: SessionOptionsInput): Updateable<DB['scenarios']> {
  return {
    recording_enabled: input.recording_enabled,
    recording_consent_required: input.recording_consent_required,
    memory_enabled: input.memory_enabled,
    notification_emails:
      input.notification_emails === undefined
        ? undefined
        : JSON.stringify([...new Set(input.notification_emails.map((email) => email.trim().toLowerCase()))]),
    language: input.language,
  };
}

function welcomeFor(persona: PersonaRow, scenarioName: string, scenarioType: string, prompt: string): string {
  return generateWelcomeMessage({
    personaName: persona.name,
    jobTitle: persona.job_title,
    scenarioName,
    scenarioType,
    prompt,
  });
}

const agentNeedsBaseUrl = () =>
  new AppError('parameter_missing', 'Enabling the custom agent requires custom_agent_config.base_url.', {
    param: 'custom_agent_config.base_url',
  });

/**
 * After its sunset the legacy webhook sends nothing (events/legacy-webhook.ts): accepting a URL
 * then would promise deliveries that never come, so it is refused, pointing to what replaced it.
 */
const legacyWebhookRetired = (sunset: Date) =>
  new AppError(
    'parameter_not_allowed',
    `webhook_url is retired: the legacy per-scenario webhook sends no events since ${sunset.toISOString()}. ` +
      'Create a webhook endpoint instead (POST /v1/webhooks/endpoints); ' +
      'webhook_url: null still clears an old one.',
    { param: 'webhook_url' },
  );
