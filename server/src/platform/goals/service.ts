import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { invalidParam, notFound } from '../../core/http/errors.ts';
import { isUuid, requireUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { type Owner, principalOwner } from '../personas/service.ts';
import { type GoalRow, goalLinks, liveScenarioIds, goalRepository as repo } from './repository.ts';
import { GOAL_METRICS_MAX_BYTES } from './schemas.ts';

const LIST = 'goals';

export interface GoalInput {
  name: string;
  description?: string | null;
  instructions?: string | null;
  metrics?: object | null;
  scenario_id?: string | null;
  active?: boolean;
  scenarios?: string[];
}

export type GoalPatch = Partial<GoalInput>;

export interface GoalDeps {
  db: Kysely<DB>;
  clock: Clock;
  paginator: Paginator;
}

export type RenderedGoal = Awaited<ReturnType<GoalService['renderMany']>>[number];

export class GoalService {
  constructor(private readonly deps: GoalDeps) {}

  /** Renders goals with the scenarios each one scores (one query for all of them). */
  async renderMany(db: Kysely<DB>, rows: GoalRow[]) {
    const links = await goalLinks.scenariosOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => renderGoal(row, links.get(row.id) ?? []));
  }

  paginate(query: PageQuery, principal: Principal): PageRequest | null {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  async list(principal: Principal, page: PageRequest | null, scenarioId?: string) {
    if (scenarioId !== undefined && !isUuid(scenarioId)) return page ? emptyPage() : [];
    const rows = await repo.list(this.deps.db, principal.accountId, page, scenarioId?.toLowerCase());
    if (!page) return this.renderMany(this.deps.db, rows);
    const kept = rows.slice(0, page.limit);
    const rendered = new Map((await this.renderMany(this.deps.db, kept)).map((goal) => [goal.id, goal]));
    return this.deps.paginator.page(
      rows,
      page,
      LIST,
      principal.accountId,
      positionOf,
      (row) => rendered.get(row.id)!,
    );
  }

  /** One keyset chunk of the list (rendered with renderMany): the whole list is streamed from these (routes). */
  listChunk(principal: Principal, page: PageRequest, scenarioId?: string): Promise<GoalRow[]> {
    if (scenarioId !== undefined && !isUuid(scenarioId)) return Promise.resolve([]);
    return repo.list(this.deps.db, principal.accountId, page, scenarioId?.toLowerCase());
  }

  /** Renders a chunk of rows (see listChunk). */
  renderChunk(rows: GoalRow[]) {
    return this.renderMany(this.deps.db, rows);
  }

  async get(principal: Principal, id: string) {
    const row = await this.find(this.deps.db, principal.accountId, id);
    return (await this.renderMany(this.deps.db, [row]))[0]!;
  }

  async create(principal: Principal, input: GoalInput) {
    const row = await this.deps.db
      .transaction()
      .execute((tx) => this.insert(tx, principalOwner(principal), input));
    return (await this.renderMany(this.deps.db, [row]))[0]!;
  }

  /** All or nothing: every goal is validated, then all are inserted in one transaction. */
  async bulkCreate(principal: Principal, inputs: GoalInput[]) {
    const owner = principalOwner(principal);
    const rows = await this.deps.db.transaction().execute(async (tx) => {
      const created: GoalRow[] = [];
      for (const [index, input] of inputs.entries()) {
        created.push(await this.insert(tx, owner, input, `goals[${index}].`));
      }
      return created;
    });
    return this.renderMany(this.deps.db, rows);
  }

  /**
   * Creates one goal with the caller's executor: its direct `scenario_id` and legacy `scenarios`
   * become links. `paramPrefix` names the goal inside a larger payload (bulk, import).
   */
  async insert(db: Kysely<DB>, owner: Owner, input: GoalInput, paramPrefix = ''): Promise<GoalRow> {
    const fields = checkFields(input, paramPrefix);
    const scenarioId = await this.resolveScenario(
      db,
      owner.accountId,
      input.scenario_id,
      `${paramPrefix}scenario_id`,
    );
    const scenarios = await this.resolveScenarios(
      db,
      owner.accountId,
      input.scenarios ?? [],
      `${paramPrefix}scenarios`,
    );
    const now = this.deps.clock.now();
    const row = await repo.insert(db, {
      id: randomUUID(),
      account_id: owner.accountId,
      membership_id: owner.membershipId,
      name: fields.name!,
      description: input.description ?? null,
      instructions: input.instructions ?? null,
      metrics: input.metrics ? JSON.stringify(input.metrics) : null,
      scenario_id: scenarioId ?? null,
      active: input.active ?? true,
      created_at: now,
      updated_at: now,
    });
    for (const target of unique([...(scenarioId ? [scenarioId] : []), ...scenarios])) {
      await goalLinks.link(db, owner.accountId, target, [row.id], now);
    }
    return row;
  }

  async update(principal: Principal, id: string, patch: GoalPatch) {
    const { accountId } = principal;
    const row = await this.deps.db.transaction().execute(async (tx) => {
      const current = await this.find(tx, accountId, id);
      const fields = checkFields(patch, '');
      const now = this.deps.clock.now();
      const scenarioId = await this.resolveScenario(tx, accountId, patch.scenario_id, 'scenario_id');
      const updated = await repo.update(tx, accountId, current.id, {
        name: fields.name,
        description: patch.description,
        instructions: patch.instructions,
        metrics:
          patch.metrics === undefined ? undefined : patch.metrics ? JSON.stringify(patch.metrics) : null,
        scenario_id: scenarioId,
        active: patch.active,
        updated_at: now,
      });
      if (!updated) throw notFound('goal');
      if (patch.scenarios !== undefined) {
        const scenarios = await this.resolveScenarios(tx, accountId, patch.scenarios, 'scenarios');
        await goalLinks.unlinkGoal(tx, current.id);
        const keep = updated.scenario_id ? [updated.scenario_id, ...scenarios] : scenarios;
        for (const target of unique(keep)) await goalLinks.link(tx, accountId, target, [current.id], now);
      } else if (scenarioId !== undefined && scenarioId !== current.scenario_id) {
        // Moving the direct link moves its association; links made otherwise stay.
        if (current.scenario_id) await goalLinks.unlink(tx, current.scenario_id, current.id);
        if (scenarioId) await goalLinks.link(tx, accountId, scenarioId, [current.id], now);
      }
      return updated;
    });
    return (await this.renderMany(this.deps.db, [row]))[0]!;
  }

  /** Deleting a goal detaches it from every scenario (the links cascade). */
  async delete(principal: Principal, id: string) {
    const row = await this.find(this.deps.db, principal.accountId, id);
    await repo.delete(this.deps.db, principal.accountId, row.id);
    return { id: row.id, object: 'goal' as const, deleted: true as const };
  }

  async find(db: Kysely<DB>, accountId: string, id: string): Promise<GoalRow> {
    const row = await repo.find(db, accountId, requireUuid(id, 'goal'));
    if (!row) throw notFound('goal');
    return row;
  }

  /** The goals a scenario's `goals` array names, each checked to be a goal of the workspace. */
  async resolveGoalIds(db: Kysely<DB>, accountId: string, ids: string[], param: string): Promise<string[]> {
    const normalized = ids.map((id, index) => {
      if (!isUuid(id)) throw invalidParam(`${param}[${index}]`, `No such goal: ${id}.`);
      return id.toLowerCase();
    });
    const found = new Set((await repo.findMany(db, accountId, unique(normalized))).map((row) => row.id));
    normalized.forEach((id, index) => {
      if (!found.has(id)) throw invalidParam(`${param}[${index}]`, `No such goal: ${id}.`);
    });
    return unique(normalized);
  }

  private async resolveScenario(
    db: Kysely<DB>,
    accountId: string,
    id: string | null | undefined,
    param: string,
  ) {
    if (id === undefined || id === null) return id;
    const [resolved] = await this.resolveScenarios(db, accountId, [id], param, false);
    return resolved!;
  }

  private async resolveScenarios(
    db: Kysely<DB>,
    accountId: string,
    ids: string[],
    param: string,
    indexed = true,
  ): Promise<string[]> {
    const name = (index: number) => (indexed ? `${param}[${index}]` : param);
    const normalized = ids.map((id, index) => {
      if (!isUuid(id)) throw invalidParam(name(index), `No such scenario: ${id}.`);
      return id.toLowerCase();
    });
    const live = await liveScenarioIds(db, accountId, unique(normalized));
    normalized.forEach((id, index) => {
      if (!live.has(id)) throw invalidParam(name(index), `No such scenario: ${id}.`);
    });
    return unique(normalized);
  }
}

export function renderGoal(row: GoalRow, scenarios: string[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    metrics: row.metrics ?? null,
    scenario_id: row.scenario_id,
    active: row.active,
    scenarios,
    membership_id: row.membership_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function checkFields(input: GoalPatch, prefix: string): { name?: string } {
  const name = input.name?.trim();
  if (input.name !== undefined && !name) throw invalidParam(`${prefix}name`, 'name must not be blank.');
  if (input.metrics && Buffer.byteLength(JSON.stringify(input.metrics)) > GOAL_METRICS_MAX_BYTES) {
    throw invalidParam(
      `${prefix}metrics`,
      `metrics must be at most ${GOAL_METRICS_MAX_BYTES} bytes as JSON.`,
    );
  }
  return { name };
}

const unique = (ids: string[]) => [...new Set(ids)];

const emptyPage = () => ({ object: 'list' as const, data: [], has_more: false, next_cursor: null });
