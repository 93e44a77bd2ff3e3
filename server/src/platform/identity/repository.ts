import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export const identityRepository = {
  insertAccount(db: Kysely<DB>, values: Insertable<DB['accounts']>) {
    return db.insertInto('accounts').values(values).execute();
  },
  insertMembership(db: Kysely<DB>, values: Insertable<DB['memberships']>) {
    return db.insertInto('memberships').values(values).execute();
  },
  /** The user's first membership (oldest, then lowest id). */
  primaryMembership(db: Kysely<DB>, userId: string) {
    return db
      .selectFrom('memberships')
      .select(['id', 'account_id'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .executeTakeFirst();
  },
  membershipRole(db: Kysely<DB>, membershipId: string, accountId: string) {
    return db
      .selectFrom('memberships')
      .select('role')
      .where('id', '=', membershipId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  },
  userById(db: Kysely<DB>, userId: string) {
    return db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
  },
  insertUser(db: Kysely<DB>, values: Insertable<DB['users']>) {
    return db.insertInto('users').values(values).execute();
  },
  /** A password user (not an external identity) by e-mail, compared lower-cased; `email` must be lower case. */
  findLocalUser(db: Kysely<DB>, email: string) {
    return db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where(({ fn }) => fn('lower', ['email']), '=', email)
      .where('external_issuer', 'is', null)
      .executeTakeFirst();
  },
  updatePassword(db: Kysely<DB>, userId: string, passwordHash: string, now: Date) {
    return db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', userId)
      .where('external_issuer', 'is', null)
      .execute();
  },
  /** The external identity's user with its first membership. */
  findExternalPrincipal(db: Kysely<DB>, identity: { issuer: string; subject: string }) {
    return db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select([
        'users.id as userId',
        'memberships.id as membershipId',
        'memberships.account_id as accountId',
        'memberships.role',
      ])
      .where('users.external_issuer', '=', identity.issuer)
      .where('users.external_subject', '=', identity.subject)
      .orderBy('memberships.created_at', 'asc')
      .executeTakeFirst();
  },
};

/** The token service's signing keys. */
export const signingKeyRepository = {
  /**
   * The key every instance signs and verifies with: the first stored, ties broken by kid. Instances
   * that started at once may each have stored one (in the same millisecond, even); all pick this
   * one, at their first start and at every restart.
   */
  current(db: Kysely<DB>) {
    return db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('created_at', 'asc')
      .orderBy('kid', 'asc')
      .executeTakeFirst();
  },
  insert(db: Kysely<DB>, values: Insertable<DB['signing_keys']>) {
    return db.insertInto('signing_keys').values(values).execute();
  },
};
