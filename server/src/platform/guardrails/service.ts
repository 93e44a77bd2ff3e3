import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { requireScenario } from '../scenarios/require.ts';
import {
  type AttachmentPosition,
  type AttachmentRow,
  type GuardrailRow,
  guardrailRepository as repo,
  type ScenarioGuardrailRow,
} from './repository.ts';

const LIST = 'guardrails';
const SCENARIO_LIST = 'scenario_guardrails';

export interface GuardrailDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  paginator: Paginator;
}

interface CreateInput {
  guardrail_name: string;
  guardrail_prompt: string;
  active?: boolean;
}
type UpdateInput = Partial<CreateInput>;

const duplicateName = (name: string) =>
  new AppError('duplicate', `A guardrail named "${name}" already exists in this workspace.`, {
    param: 'guardrail_name',
    errors: [{ param: 'guardrail_name', code: 'duplicate', message: `guardrail_name "${name}" is taken.` }],
  });
const guardrailNotFound = () => notFound('guardrail', 'id');

export class GuardrailService {
  constructor(private readonly deps: GuardrailDeps) {}

  render(row: GuardrailRow) {
    return {
      id: row.id,
      membership_id: row.membership_id,
      guardrail_name: row.guardrail_name,
      guardrail_prompt: this.deps.secretBox.open(row.prompt_sealed),
      active: row.active,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  renderScenarioGuardrail(row: ScenarioGuardrailRow) {
    return {
      ...this.render(row),
      attachment: {
        scenario_id: row.scenario_id,
        active: row.attachment_active,
        position: row.position,
        attached_at: row.attached_at.toISOString(),
        updated_at: row.attachment_updated_at.toISOString(),
      },
      in_effect: row.active && row.attachment_active,
    };
  }

  async create(principal: Principal, input: CreateInput) {
    refuseBlankPrompt(input.guardrail_prompt);
    const now = this.deps.clock.now();
    if (await repo.findByName(this.deps.db, principal.accountId, input.guardrail_name)) {
      throw duplicateName(input.guardrail_name);
    }
    try {
      const row = await repo.insert(this.deps.db, {
        id: randomUUID(),
        account_id: principal.accountId,
        membership_id: principal.membershipId,
        guardrail_name: input.guardrail_name,
        prompt_sealed: this.deps.secretBox.seal(input.guardrail_prompt),
        active: input.active ?? true,
        created_at: now,
        updated_at: now,
      });
      return this.render(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(input.guardrail_name);
      throw error;
    }
  }

  paginate(query: PageQuery, principal: Principal) {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  async list(principal: Principal, page: PageRequest | null) {
    const rows = await repo.list(this.deps.db, principal.accountId, page);
    if (!page) return { data: rows.map((row) => this.render(row)) };
    return this.deps.paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) =>
      this.render(row),
    );
  }

  async get(principal: Principal, id: string) {
    const row = await this.find(principal, id);
    const scenarios = await repo.scenariosOf(this.deps.db, principal.accountId, row.id);
    return {
      ...this.render(row),
      scenarios: scenarios.map((s) => ({
        id: s.id,
        name: s.name,
        active: s.active,
        position: s.position,
        attached_at: s.attached_at.toISOString(),
      })),
    };
  }

  async update(principal: Principal, id: string, input: UpdateInput) {
    const current = await this.find(principal, id);
    refuseBlankPrompt(input.guardrail_prompt);
    const name = input.guardrail_name;
    if (name !== undefined && name !== current.guardrail_name) {
      if (await repo.findByName(this.deps.db, principal.accountId, name)) throw duplicateName(name);
    }
    try {
      const row = await repo.update(this.deps.db, principal.accountId, current.id, {
        ...(name !== undefined ? { guardrail_name: name } : {}),
        ...(input.guardrail_prompt !== undefined
          ? { prompt_sealed: this.deps.secretBox.seal(input.guardrail_prompt) }
          : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updated_at: this.deps.clock.now(),
      });
      if (!row) throw guardrailNotFound();
      return this.render(row);
    } catch (error) {
      if (isUniqueViolation(error) && name !== undefined) throw duplicateName(name);
      throw error;
    }
  }

  /** Permanent; the attachments go with it, so the rule leaves every scenario. */
  async delete(principal: Principal, id: string) {
    if (!isUuid(id) || !(await repo.delete(this.deps.db, principal.accountId, id))) {
      throw guardrailNotFound();
    }
  }

  async listForScenario(principal: Principal, scenarioId: string, query: PageQuery) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const page = this.deps.paginator.parse(query, SCENARIO_LIST, `${principal.accountId}:${scenario.id}`);
    const rows = await repo.forScenario(this.deps.db, principal.accountId, scenario.id, {
      after: page?.after ? decodeAttachmentPosition(page.after) : null,
      limit: page ? page.limit + 1 : undefined,
    });
    if (!page) return { data: rows.map((row) => this.renderScenarioGuardrail(row)) };
    return this.deps.paginator.page(
      rows,
      page,
      SCENARIO_LIST,
      `${principal.accountId}:${scenario.id}`,
      (row) => ({ createdAt: row.attached_at.toISOString(), id: `${row.position}:${row.id}` }),
      (row) => this.renderScenarioGuardrail(row),
    );
  }

  /**
   * Idempotent: attaching again re-activates a disabled attachment and, when `position` is given,
   * moves it. Without `position` a new attachment goes after the scenario's last one.
   */
  async attach(principal: Principal, scenarioId: string, guardrailId: string, position?: number) {
    const { db, clock } = this.deps;
    const scenario = await requireScenario(db, principal.accountId, scenarioId);
    const guardrail = await this.find(principal, guardrailId);
    const now = clock.now();
    await db.transaction().execute(async (tx) => {
      const existing = await repo.findAttachment(tx, principal.accountId, scenario.id, guardrail.id);
      await repo.upsertAttachment(
        tx,
        {
          account_id: principal.accountId,
          scenario_id: scenario.id,
          guardrail_id: guardrail.id,
          active: true,
          position:
            position ?? existing?.position ?? (await repo.nextPosition(tx, principal.accountId, scenario.id)),
          attached_at: now,
          updated_at: now,
        },
        position !== undefined,
      );
    });
    return this.scenarioGuardrail(principal, scenario.id, guardrail.id);
  }

  async updateAttachment(
    principal: Principal,
    scenarioId: string,
    guardrailId: string,
    input: { active?: boolean; position?: number },
  ) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const guardrail = await this.find(principal, guardrailId);
    const updated: AttachmentRow | undefined = await repo.updateAttachment(
      this.deps.db,
      principal.accountId,
      scenario.id,
      guardrail.id,
      {
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
        updated_at: this.deps.clock.now(),
      },
    );
    if (!updated) throw attachmentNotFound();
    return this.scenarioGuardrail(principal, scenario.id, guardrail.id);
  }

  async detach(principal: Principal, scenarioId: string, guardrailId: string) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const guardrail = await this.find(principal, guardrailId);
    const removed = await repo.deleteAttachment(this.deps.db, principal.accountId, scenario.id, guardrail.id);
    if (!removed) throw attachmentNotFound();
  }

  private async scenarioGuardrail(principal: Principal, scenarioId: string, guardrailId: string) {
    const rows = await repo.forScenario(this.deps.db, principal.accountId, scenarioId);
    const row = rows.find((r) => r.id === guardrailId);
    if (!row) throw attachmentNotFound();
    return this.renderScenarioGuardrail(row);
  }

  private async find(principal: Principal, id: string): Promise<GuardrailRow> {
    const row = isUuid(id) ? await repo.find(this.deps.db, principal.accountId, id) : undefined;
    if (!row) throw guardrailNotFound();
    return row;
  }
}

/**
 * `minLength` lets a prompt of spaces through, and the block trims it away: the rule would be
 * attached, listed as in effect, and never reach the persona.
 */
/** A prompt of spaces would never reach the persona (the block trims it away). */
export function refuseBlankPrompt(prompt: string | undefined, param = 'guardrail_prompt') {
  if (prompt === undefined || prompt.trim() !== '') return;
  const message = 'guardrail_prompt must not be blank.';
  throw new AppError('parameter_invalid', message, {
    param,
    errors: [{ param, code: 'parameter_invalid', message }],
  });
}

const attachmentNotFound = () =>
  new AppError('resource_not_found', 'This guardrail is not attached to this scenario.', { param: 'id' });

/** Cursor positions of the position-ordered list carry `<position>:<guardrail id>` as their id. */
function decodeAttachmentPosition(after: { createdAt: string; id: string | number }): AttachmentPosition {
  const [position, guardrailId] = String(after.id).split(':');
  return { position: Number(position), attachedAt: after.createdAt, guardrailId: guardrailId! };
}
