import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export const sessionRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['user_sessions']>) {
    return db.insertInto('user_sessions').values(values).execute();
  },
  /** The unexpired session with its user and workspace, as the session body shows them. */
  findLive(db: Kysely<DB>, tokenHash: string, now: Date) {
    return db
      .selectFrom('user_sessions')
      .innerJoin('users', 'users.id', 'user_sessions.user_id')
      .innerJoin('accounts', 'accounts.id', 'user_sessions.account_id')
      .innerJoin('memberships', 'memberships.id', 'user_sessions.membership_id')
      .select([
        'memberships.role',
        'user_sessions.token_hash',
        'user_sessions.user_id',
        'user_sessions.membership_id',
        'user_sessions.account_id',
        'user_sessions.created_at',
        'user_sessions.expires_at',
        'user_sessions.last_seen_at',
        'users.email as user_email',
        'users.name as user_name',
        'accounts.name as account_name',
      ])
      .where('user_sessions.token_hash', '=', tokenHash)
      .where('user_sessions.expires_at', '>', now)
      .executeTakeFirst();
  },
  /** The user's workspaces with their role, oldest membership first. */
  workspacesOf(db: Kysely<DB>, userId: string) {
    return db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['accounts.id', 'accounts.name', 'memberships.role', 'memberships.id as membershipId'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.created_at', 'asc')
      .orderBy('memberships.id', 'asc')
      .execute();
  },
  moveTo(db: Kysely<DB>, tokenHash: string, membershipId: string, accountId: string) {
    return db
      .updateTable('user_sessions')
      .set({ membership_id: membershipId, account_id: accountId })
      .where('token_hash', '=', tokenHash)
      .execute();
  },
  touch(db: Kysely<DB>, tokenHash: string, values: { last_seen_at: Date; expires_at: Date }) {
    return db.updateTable('user_sessions').set(values).where('token_hash', '=', tokenHash).execute();
  },
  delete(db: Kysely<DB>, tokenHash: string) {
    return db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
  },
  /** Every session of the user but `keep` (the one that asked, when it is theirs). */
  deleteForUser(db: Kysely<DB>, userId: string, keep: string | null) {
    let query = db.deleteFrom('user_sessions').where('user_id', '=', userId);
    if (keep) query = query.where('token_hash', '!=', keep);
    return query.execute();
  },
  deleteExpired(db: Kysely<DB>, now: Date) {
    return db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
  },
};

export const passwordResetRepository = {
  insert(db: Kysely<DB>, values: Insertable<DB['password_resets']>) {
    return db.insertInto('password_resets').values(values).execute();
  },
  /** Marks the token used if it is unused and unexpired, in one statement: a token works once. */
  async consume(db: Kysely<DB>, tokenHash: string, now: Date): Promise<string | null> {
    const row = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  },
  /** The user's other outstanding links stop working once the password changed. */
  retireForUser(db: Kysely<DB>, userId: string, now: Date) {
    return db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  },
  deleteExpired(db: Kysely<DB>, now: Date) {
    return db.deleteFrom('password_resets').where('expires_at', '<=', now).execute();
  },
};
