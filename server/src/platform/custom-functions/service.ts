import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { prefixedSecret } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, type FieldError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { isAddressAllowed, type OutboundPolicy, parseCidrList } from '../../core/outbound/address-policy.ts';
import { requireScenario } from '../scenarios/require.ts';
import { parametersSchemaProblem } from './json-schema.ts';
import {
  type CustomFunctionRow,
  customFunctionRepository as repo,
  type ScenarioFunctionRow,
} from './repository.ts';
import { DEFAULT_TIMEOUT_MS } from './schemas.ts';

const LIST = 'custom_functions';
const SCENARIO_LIST = 'scenario_custom_functions';
/** Names of the tools the live engine always offers; a custom function may not shadow them. */
export const RESERVED_FUNCTION_NAMES = ['end_call', 'web_search'];

export interface CustomFunctionDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  paginator: Paginator;
  config: Pick<Config, 'appEnv' | 'outboundAllowCidrs'>;
}

interface FunctionInput {
  name?: string;
  description?: string;
  parameters_schema?: object;
  execution_mode?: 'webhook';
  webhook_url?: string;
  webhook_secret?: string;
  timeout_ms?: number;
}

const DEFAULT_PARAMETERS = { type: 'object', properties: {} };

const functionNotFound = (param = 'id') => notFound('custom function', param);
const duplicateName = (name: string) =>
  new AppError('duplicate', `A custom function named "${name}" already exists in this workspace.`, {
    param: 'name',
  });

export class CustomFunctionService {
  private readonly policy: OutboundPolicy;

  constructor(private readonly deps: CustomFunctionDeps) {
    this.policy = {
      allowCidrs: parseCidrList(deps.config.outboundAllowCidrs),
      requireHttps: deps.config.appEnv === 'production',
    };
  }

  render(row: CustomFunctionRow) {
    return {
      id: row.id,
      membership_id: row.membership_id,
      name: row.name,
      description: row.description,
      parameters_schema: row.parameters_schema,
      execution_mode: row.execution_mode,
      webhook_url: row.webhook_url,
      webhook_secret_last4: row.webhook_secret_last4,
      timeout_ms: row.timeout_ms,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  async create(principal: Principal, input: FunctionInput & { name: string; webhook_url: string }) {
    this.validate(input);
    const { db, clock, secretBox } = this.deps;
    if (await repo.findByName(db, principal.accountId, input.name)) throw duplicateName(input.name);
    const secret = input.webhook_secret ?? prefixedSecret('whsec_', 24);
    const now = clock.now();
    try {
      const row = await repo.insert(db, {
        id: randomUUID(),
        account_id: principal.accountId,
        membership_id: principal.membershipId,
        name: input.name,
        description: input.description ?? '',
        parameters_schema: JSON.stringify(input.parameters_schema ?? DEFAULT_PARAMETERS),
        execution_mode: input.execution_mode ?? 'webhook',
        webhook_url: input.webhook_url,
        webhook_secret_sealed: secretBox.seal(secret),
        webhook_secret_last4: secret.slice(-4),
        timeout_ms: input.timeout_ms ?? DEFAULT_TIMEOUT_MS,
        created_at: now,
        updated_at: now,
      });
      return { ...this.render(row), webhook_secret: secret };
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(input.name);
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
      scenarios: scenarios.map((s) => ({ id: s.id, name: s.name, attached_at: s.attached_at.toISOString() })),
    };
  }

  /** Attached scenarios reference the definition, so every change reaches them all at once. */
  async update(principal: Principal, id: string, input: FunctionInput) {
    this.validate(input);
    const current = await this.find(principal, id);
    const { db, clock, secretBox } = this.deps;
    if (input.name !== undefined && input.name !== current.name) {
      if (await repo.findByName(db, principal.accountId, input.name)) throw duplicateName(input.name);
    }
    try {
      const row = await repo.update(db, principal.accountId, current.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.parameters_schema !== undefined
          ? { parameters_schema: JSON.stringify(input.parameters_schema) }
          : {}),
        ...(input.execution_mode !== undefined ? { execution_mode: input.execution_mode } : {}),
        ...(input.webhook_url !== undefined ? { webhook_url: input.webhook_url } : {}),
        ...(input.webhook_secret !== undefined
          ? {
              webhook_secret_sealed: secretBox.seal(input.webhook_secret),
              webhook_secret_last4: input.webhook_secret.slice(-4),
            }
          : {}),
        ...(input.timeout_ms !== undefined ? { timeout_ms: input.timeout_ms } : {}),
        updated_at: clock.now(),
      });
      if (!row) throw functionNotFound();
      return this.render(row);
    } catch (error) {
      if (isUniqueViolation(error) && input.name !== undefined) throw duplicateName(input.name);
      throw error;
    }
  }

  /** A new generated secret, effective at once for every attached scenario; returned this once. */
  async rotateSecret(principal: Principal, id: string) {
    const current = await this.find(principal, id);
    const secret = prefixedSecret('whsec_', 24);
    const row = await repo.update(this.deps.db, principal.accountId, current.id, {
      webhook_secret_sealed: this.deps.secretBox.seal(secret),
      webhook_secret_last4: secret.slice(-4),
      updated_at: this.deps.clock.now(),
    });
    if (!row) throw functionNotFound();
    return { ...this.render(row), webhook_secret: secret };
  }

  /** Permanent; the function leaves every scenario it was attached to. */
  async delete(principal: Principal, id: string) {
    if (!isUuid(id) || !(await repo.delete(this.deps.db, principal.accountId, id))) throw functionNotFound();
  }

  async listForScenario(principal: Principal, scenarioId: string, query: PageQuery) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const scope = `${principal.accountId}:${scenario.id}`;
    const page = this.deps.paginator.parse(query, SCENARIO_LIST, scope);
    const rows = await repo.forScenario(this.deps.db, principal.accountId, scenario.id, {
      after: page?.after ? { attachedAt: page.after.createdAt, functionId: String(page.after.id) } : null,
      limit: page ? page.limit + 1 : undefined,
    });
    const render = (row: ScenarioFunctionRow) => ({
      ...this.render(row),
      attached_at: row.attached_at.toISOString(),
    });
    if (!page) return { data: rows.map(render) };
    return this.deps.paginator.page(
      rows,
      page,
      SCENARIO_LIST,
      scope,
      (row) => ({ createdAt: row.attached_at.toISOString(), id: row.id }),
      render,
    );
  }

  /** Idempotent: attaching an attached function changes nothing. */
  async attach(principal: Principal, scenarioId: string, functionId: string) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const fn = await this.find(principal, functionId, 'functionId');
    await repo.attach(this.deps.db, {
      account_id: principal.accountId,
      scenario_id: scenario.id,
      function_id: fn.id,
      attached_at: this.deps.clock.now(),
    });
    const rows = await repo.forScenario(this.deps.db, principal.accountId, scenario.id);
    const row = rows.find((r) => r.id === fn.id)!;
    return { ...this.render(row), attached_at: row.attached_at.toISOString() };
  }

  async detach(principal: Principal, scenarioId: string, functionId: string) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId);
    const fn = await this.find(principal, functionId, 'functionId');
    if (!(await repo.detach(this.deps.db, principal.accountId, scenario.id, fn.id))) {
      throw new AppError('resource_not_found', 'This custom function is not attached to this scenario.', {
        param: 'functionId',
      });
    }
  }

  private async find(principal: Principal, id: string, param = 'id'): Promise<CustomFunctionRow> {
    const row = isUuid(id) ? await repo.find(this.deps.db, principal.accountId, id) : undefined;
    if (!row) throw functionNotFound(param);
    return row;
  }

  /** Rules a JSON Schema cannot express; every failing field is reported at once. */
  private validate(input: FunctionInput) {
    const errors = functionInputProblems(input, this.policy);
    if (errors.length > 0) {
      throw new AppError('parameter_invalid', errors[0]!.message, { param: errors[0]!.param, errors });
    }
  }
}

/** What is wrong with a function's name, schema and URL (the fields given), field by field. */
export function functionInputProblems(
  input: Pick<FunctionInput, 'name' | 'parameters_schema' | 'webhook_url'>,
  policy: OutboundPolicy,
): FieldError[] {
  const errors: FieldError[] = [];
  if (input.name !== undefined && RESERVED_FUNCTION_NAMES.includes(input.name.toLowerCase())) {
    errors.push({
      param: 'name',
      code: 'parameter_invalid',
      message: `name "${input.name}" is reserved for a built-in tool.`,
    });
  }
  if (input.parameters_schema !== undefined) {
    const problem = parametersSchemaProblem(input.parameters_schema as Record<string, unknown>);
    if (problem) errors.push({ param: 'parameters_schema', code: 'parameter_invalid', message: problem });
  }
  if (input.webhook_url !== undefined) {
    const problem = webhookUrlProblem(input.webhook_url, policy);
    if (problem) errors.push({ param: 'webhook_url', code: 'parameter_invalid', message: problem });
  }
  return errors;
}

/**
 * A first check of the URL at registration, so mistakes fail with a 400 rather than on every call.
 * HTTPS is required in production; plain http is accepted in development (APP_ENV=development).
 * Literal private, loopback and link-local hosts are refused unless OUTBOUND_ALLOW_CIDRS permits
 * them. The outbound client resolves and checks the address again on every call.
 */
export function webhookUrlProblem(raw: string, policy: OutboundPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhook_url must be an absolute URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'webhook_url must use https.';
  if (url.protocol === 'http:' && policy.requireHttps) return 'webhook_url must use https in production.';
  if (url.username || url.password) return 'webhook_url must not contain credentials.';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : host;
  if (isIP(literal) !== 0 && !isAddressAllowed(literal, policy)) {
    return 'webhook_url points at a private, loopback or otherwise non-public address.';
  }
  return null;
}
