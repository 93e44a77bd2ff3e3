// The workspace's audit log: who changed members, invitations and API keys, and when. Admins read
// it (GET /v1/audit-events). Names are copied at the time, so the log still reads after a member
// or key is gone.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { type PageQuery, type Paginator, positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { type AuditEventRow, auditRepository } from './repository.ts';

const LIST = 'audit_events';

export type AuditAction =
  | 'member.invited'
  | 'member.joined'
  | 'member.role_changed'
  | 'member.removed'
  | 'member.left'
  | 'invitation.revoked'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'api_key.reactivated'
  | 'api_key.deleted';

export interface AuditEntry {
  action: AuditAction;
  /** What it was done to, readable: an e-mail address, a member's name, a key's name. */
  target: string;
  details?: Record<string, unknown>;
}

export class AuditLog {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; paginator: Paginator }) {}

  /** Newest first: the whole log, or a page when `limit` or `cursor` is sent. */
  async list(principal: Principal, query: PageQuery) {
    const { db, paginator } = this.deps;
    const page = paginator.parse(query, LIST, principal.accountId);
    const rows = await auditRepository.list(db, principal.accountId, page);
    if (!page) return rows.map((row) => this.render(row));
    return paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) => this.render(row));
  }

  /** Records `entry` as done by `actor` (in the caller's transaction when `db` is one). */
  async record(actor: Principal, entry: AuditEntry, db: Kysely<DB> = this.deps.db): Promise<void> {
    await auditRepository.insert(db, {
      id: randomUUID(),
      account_id: actor.accountId,
      actor_membership_id: actor.membershipId,
      actor_kind: actor.kind,
      actor_name: await this.nameOf(db, actor),
      action: entry.action,
      target: entry.target,
      details: JSON.stringify(entry.details ?? {}),
      created_at: this.deps.clock.now(),
    });
  }

  render(row: AuditEventRow) {
    return {
      id: row.id,
      action: row.action,
      actor: { kind: row.actor_kind, member_id: row.actor_membership_id, name: row.actor_name },
      target: row.target,
      details: (row.details ?? {}) as Record<string, unknown>,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  /** A member by their name and e-mail; an API key by its name. */
  private async nameOf(db: Kysely<DB>, actor: Principal): Promise<string> {
    if (actor.kind === 'api_key' && actor.apiKeyId !== null) {
      const key = await auditRepository.keyName(db, actor.apiKeyId);
      return `API key “${key?.name ?? actor.apiKeyId}”`;
    }
    const user = await auditRepository.memberName(db, actor.membershipId);
    return user ? `${user.name} <${user.email}>` : 'a former member';
  }
}
