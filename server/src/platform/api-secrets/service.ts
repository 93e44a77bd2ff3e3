import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { sha256Hex } from '../../core/crypto/hashing.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import type { Page, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { AuditLog } from '../team/audit.ts';
import { memberRepository } from '../team/repository.ts';
import type { ApiKeyVerifier } from './key-verifier.ts';
import { type ApiSecretRow, apiSecretRepository as repo } from './repository.ts';

const LIST = 'api_secrets';
const BCRYPT_COST = 10;
const WARNING =
  'Store this key now: it will not be shown again. Anyone holding it has full access to this workspace.';

export interface ApiSecretDeps {
  db: Kysely<DB>;
  clock: Clock;
  apiKeys: ApiKeyVerifier;
  paginator: Paginator;
  audit: AuditLog;
}

export class ApiSecretService {
  constructor(private readonly deps: ApiSecretDeps) {}

  render(row: ApiSecretRow, creators: Map<string, { name: string; email: string }> = new Map()) {
    const creator = creators.get(row.membership_id);
    const pending = this.deps.apiKeys.pendingLastUsed(row.id);
    const lastUsed =
      pending && (!row.last_used_at || pending > row.last_used_at) ? pending : row.last_used_at;
    return {
      id: row.id,
      name: row.name,
      secret_prefix: row.secret_prefix,
      is_active: row.is_active,
      scopes: row.scopes && row.scopes.length > 0 ? row.scopes : null,
      created_by: {
        member_id: row.membership_id,
        name: creator?.name ?? null,
        email: creator?.email ?? null,
      },
      last_used_at: lastUsed ? lastUsed.toISOString() : null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  async create(principal: Principal, input: { name: string; scopes?: string[] }) {
    const secret = `svc_${randomBytes(32).toString('hex')}`;
    const now = this.deps.clock.now();
    const scopes = input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : null;
    const row = await repo.insert(this.deps.db, {
      account_id: principal.accountId,
      membership_id: principal.membershipId,
      name: input.name,
      secret_prefix: secret.slice(0, 12),
      secret_hash: await bcrypt.hash(secret, BCRYPT_COST),
      lookup_hash: sha256Hex(secret),
      scopes: scopes ? JSON.stringify(scopes) : null,
      created_at: now,
      updated_at: now,
    });
    await this.deps.audit.record(principal, {
      action: 'api_key.created',
      target: input.name,
      details: { key_id: row.id, scopes },
    });
    return { ...this.render(row, await this.creators(principal, [row])), secret, warning: WARNING };
  }

  async list(
    principal: Principal,
    page: PageRequest | null,
  ): Promise<Page<ReturnType<ApiSecretService['render']>> | ReturnType<ApiSecretService['render']>[]> {
    const rows = await repo.list(this.deps.db, principal.accountId, page);
    const creators = await this.creators(principal, rows);
    if (!page) return rows.map((row) => this.render(row, creators));
    return this.deps.paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) =>
      this.render(row, creators),
    );
  }

  async get(principal: Principal, id: string) {
    const row = await this.find(principal, id);
    return this.render(row, await this.creators(principal, [row]));
  }

  async setActive(principal: Principal, id: string, isActive: boolean) {
    const row = await repo.setActive(
      this.deps.db,
      principal.accountId,
      parseId(id),
      isActive,
      this.deps.clock.now(),
    );
    if (!row) throw notFound();
    if (!isActive) await this.announceChange(row.lookup_hash);
    await this.deps.audit.record(principal, {
      action: isActive ? 'api_key.reactivated' : 'api_key.revoked',
      target: row.name,
      details: { key_id: row.id },
    });
    return { id: row.id, name: row.name, is_active: row.is_active };
  }

  async delete(principal: Principal, id: string) {
    const row = await repo.delete(this.deps.db, principal.accountId, parseId(id));
    if (!row) throw notFound();
    await this.announceChange(row.lookup_hash);
    await this.deps.audit.record(principal, {
      action: 'api_key.deleted',
      target: row.name,
      details: { key_id: row.id },
    });
  }

  /** Keys of a removed member (deleted with the membership): evicted here and on every instance. */
  async announceRemoved(lookupHashes: string[]) {
    for (const hash of lookupHashes) await this.announceChange(hash);
  }

  /** Who made each key: the member's name and e-mail (null once they have left). */
  private async creators(principal: Principal, rows: ApiSecretRow[]) {
    const ids = [...new Set(rows.map((row) => row.membership_id))];
    const names = await memberRepository.names(this.deps.db, principal.accountId, ids);
    return new Map(names.map((row) => [row.id, { name: row.name, email: row.email }]));
  }

  private async find(principal: Principal, id: string) {
    const row = await repo.find(this.deps.db, principal.accountId, parseId(id));
    if (!row) throw notFound();
    return row;
  }

  /** Evicts here at once and tells the other instances (they evict on the NOTIFY). */
  private async announceChange(lookupHash: string) {
    this.deps.apiKeys.evict(lookupHash);
    await repo.announceChange(this.deps.db, lookupHash);
  }

  paginate(query: { limit?: number; cursor?: string; starting_after?: string }, principal: Principal) {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }
}

const notFound = () => new AppError('resource_not_found', 'No such API key.', { param: 'id' });

/** Key ids are integers; anything else names no key. */
function parseId(id: string): number {
  // Ids are random integers up to 2^53 - 1 (migration 0064): at most 16 digits, exact as numbers.
  if (!/^\d{1,16}$/.test(id) || !Number.isSafeInteger(Number(id))) throw notFound();
  return Number(id);
}
