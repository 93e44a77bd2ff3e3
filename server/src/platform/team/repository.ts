import type { Insertable, Kysely, Selectable } from 'kysely';
import { newestFirst } from '../../core/db/keyset.ts';
import type { DB } from '../../core/db/schema.ts';
import type { PageRequest } from '../../core/http/pagination.ts';

export type InvitationRow = Selectable<DB['invitations']>;
export type AuditEventRow = Selectable<DB['audit_events']>;

/** A workspace's memberships with their user's name and address. */
const membersOf = (db: Kysely<DB>, accountId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.id',
      'memberships.role',
      'memberships.created_at',
      'memberships.user_id',
      'users.name',
      'users.email',
    ])
    .where('memberships.account_id', '=', accountId);

/** Members are memberships with their user; every query is bounded by the workspace. */
export const memberRepository = {
  list(db: Kysely<DB>, accountId: string) {
    return membersOf(db, accountId)
      .orderBy('memberships.created_at', 'asc')
      .orderBy('memberships.id', 'asc')
      .execute();
  },
  find(db: Kysely<DB>, accountId: string, membershipId: string) {
    return membersOf(db, accountId).where('memberships.id', '=', membershipId).executeTakeFirst();
  },
  /** Locks the workspace's owner rows, so two owners cannot both leave at once. */
  async ownerCount(db: Kysely<DB>, accountId: string): Promise<number> {
    const rows = await db
      .selectFrom('memberships')
      .select('id')
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .forUpdate()
      .execute();
    return rows.length;
  },
  setRole(db: Kysely<DB>, accountId: string, membershipId: string, role: string) {
    return db
      .updateTable('memberships')
      .set({ role })
      .where('account_id', '=', accountId)
      .where('id', '=', membershipId)
      .execute();
  },
  /** Deletes the membership; its sessions and API keys go with it (foreign keys). */
  delete(db: Kysely<DB>, accountId: string, membershipId: string) {
    return db
      .deleteFrom('memberships')
      .where('account_id', '=', accountId)
      .where('id', '=', membershipId)
      .execute();
  },
  keyHashesOf(db: Kysely<DB>, accountId: string, membershipId: string) {
    return db
      .selectFrom('api_secrets')
      .select('lookup_hash')
      .where('account_id', '=', accountId)
      .where('membership_id', '=', membershipId)
      .execute();
  },
  byEmail(db: Kysely<DB>, accountId: string, email: string) {
    return db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select('memberships.id')
      .where('memberships.account_id', '=', accountId)
      .where(({ fn }) => fn('lower', ['users.email']), '=', email)
      .executeTakeFirst();
  },
  insert(db: Kysely<DB>, values: Insertable<DB['memberships']>) {
    return db.insertInto('memberships').values(values).execute();
  },
  isMember(db: Kysely<DB>, accountId: string, userId: string) {
    return db
      .selectFrom('memberships')
      .select('id')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },
  /** Display names of members by membership id (for "invited by" and "created by"). */
  names(db: Kysely<DB>, accountId: string, membershipIds: string[]) {
    if (membershipIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['memberships.id', 'users.name', 'users.email'])
      .where('memberships.account_id', '=', accountId)
      .where('memberships.id', 'in', membershipIds)
      .execute();
  },
};

export const invitationRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['invitations']>) {
    return db.insertInto('invitations').values(values).returningAll().executeTakeFirstOrThrow();
  },
  list(db: Kysely<DB>, accountId: string) {
    return db
      .selectFrom('invitations')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
  },
  find(db: Kysely<DB>, accountId: string, id: string) {
    return db
      .selectFrom('invitations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  byToken(db: Kysely<DB>, tokenHash: string) {
    return db
      .selectFrom('invitations')
      .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
      .selectAll('invitations')
      .select('accounts.name as account_name')
      .where('invitations.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },
  /** Pending invitations to this address are replaced by a new one. */
  revokePendingFor(db: Kysely<DB>, accountId: string, email: string, now: Date) {
    return db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  },
  revoke(db: Kysely<DB>, accountId: string, id: string, now: Date) {
    return db
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  },
  /** What the invitation e-mail says: the address, role, workspace and inviter. */
  forEmail(db: Kysely<DB>, id: string) {
    return db
      .selectFrom('invitations')
      .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
      .leftJoin('memberships', 'memberships.id', 'invitations.invited_by')
      .leftJoin('users', 'users.id', 'memberships.user_id')
      .select([
        'invitations.email',
        'invitations.role',
        'invitations.revoked_at',
        'invitations.accepted_at',
        'accounts.name as workspace',
        'users.name as inviter',
      ])
      .where('invitations.id', '=', id)
      .executeTakeFirst();
  },
  /** Marks it accepted if it is still open, in one statement: a link works once. */
  accept(db: Kysely<DB>, id: string, now: Date) {
    return db
      .updateTable('invitations')
      .set({ accepted_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  },
};

export const auditRepository = {
  keyName(db: Kysely<DB>, keyId: number) {
    return db.selectFrom('api_secrets').select('name').where('id', '=', keyId).executeTakeFirst();
  },
  memberName(db: Kysely<DB>, membershipId: string) {
    return db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.name', 'users.email'])
      .where('memberships.id', '=', membershipId)
      .executeTakeFirst();
  },
  insert(db: Kysely<DB>, values: Insertable<DB['audit_events']>) {
    return db.insertInto('audit_events').values(values).execute();
  },
  list(db: Kysely<DB>, accountId: string, page: PageRequest | null) {
    return newestFirst(
      db.selectFrom('audit_events').selectAll().where('account_id', '=', accountId),
      page,
      'audit_events',
    ).execute();
  },
};
