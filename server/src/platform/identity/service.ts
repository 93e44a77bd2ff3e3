import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { Role } from '../../core/http/roles.ts';
import { type AccountCreatedHook, createWorkspace } from './accounts.ts';
import type { ExternalIdentity } from './oidc.ts';
import { identityRepository } from './repository.ts';
import type { TokenService, UserClaims } from './tokens.ts';

export const PASSWORD_COST = 10;
/**
 * Compared against when the e-mail is unknown, so both failures take the same time: a bcrypt hash
 * of 'not-a-real-password' at PASSWORD_COST, written out rather than hashed at import (about 0.1 s
 * of CPU at every start). identity.test.ts checks that its cost is PASSWORD_COST.
 */
export const DUMMY_HASH = '$2b$10$ejO3jg.4N13AUPTAA9zeg.8f0.z59YcmBHw9dRRjpBhYs3oi6Jdfq';

export interface IdentityDeps {
  db: Kysely<DB>;
  clock: Clock;
  tokens: TokenService;
  accountHooks: readonly AccountCreatedHook[];
}

export class IdentityService {
  constructor(private readonly deps: IdentityDeps) {}

  async signup(input: { email: string; password: string; name: string }) {
    const { db, clock, tokens } = this.deps;
    const email = input.email.trim().toLowerCase();
    const existing = await identityRepository.findLocalUser(db, email);
    if (existing)
      throw new AppError('duplicate', 'An account with this email already exists.', { param: 'email' });
    const passwordHash = await bcrypt.hash(input.password, PASSWORD_COST);
    const now = clock.now();
    const user = { id: randomUUID(), email, name: input.name.trim(), created_at: now, updated_at: now };
    const workspace = await db.transaction().execute(async (tx) => {
      await identityRepository.insertUser(tx, { ...user, password_hash: passwordHash });
      return createWorkspace(
        tx,
        { clock, hooks: this.deps.accountHooks },
        { userId: user.id, name: `${user.name}'s workspace` },
      );
    });
    const token = await tokens.sign({ userId: user.id, ...workspace });
    return {
      token,
      user: { id: user.id, email: user.email, name: user.name, created_at: now.toISOString() },
      account: { id: workspace.accountId, name: `${user.name}'s workspace`, created_at: now.toISOString() },
      membership_id: workspace.membershipId,
    };
  }

  /**
   * A password user without a workspace of their own (they join one by invitation), inside the
   * caller's transaction; 409 when the address already has an account (sign in instead).
   */
  async createUser(
    tx: Kysely<DB>,
    input: { email: string; password: string; name: string },
  ): Promise<{ id: string; email: string; name: string }> {
    const email = input.email.trim().toLowerCase();
    if (await identityRepository.findLocalUser(tx, email)) {
      throw new AppError(
        'duplicate',
        'An account with this email already exists: sign in, then open the link again.',
        {
          param: 'email',
        },
      );
    }
    const now = this.deps.clock.now();
    const user = { id: randomUUID(), email, name: input.name.trim(), created_at: now, updated_at: now };
    await identityRepository.insertUser(tx, {
      ...user,
      password_hash: await bcrypt.hash(input.password, PASSWORD_COST),
    });
    return { id: user.id, email: user.email, name: user.name };
  }

  /** A user's name and e-mail, for the audit log of what they do. */
  async userById(userId: string) {
    return identityRepository.userById(this.deps.db, userId);
  }

  async login(input: { email: string; password: string }): Promise<{ token: string }> {
    return { token: await this.deps.tokens.sign(await this.authenticate(input)) };
  }

  /** The password user whose password this is, or null (in the same time whether or not they exist). */
  async passwordUser(input: { email: string; password: string }) {
    const user = await identityRepository.findLocalUser(this.deps.db, input.email.trim().toLowerCase());
    const matches = await bcrypt.compare(input.password, user?.password_hash ?? DUMMY_HASH);
    return user && matches ? ((await identityRepository.userById(this.deps.db, user.id)) ?? null) : null;
  }

  /** The password user's first workspace, or invalid_credentials (the same answer and time for both failures). */
  async authenticate(input: { email: string; password: string }): Promise<UserClaims> {
    const user = await this.passwordUser(input);
    const membership = user ? await identityRepository.primaryMembership(this.deps.db, user.id) : undefined;
    if (!user || !membership) throw new AppError('invalid_credentials', 'Invalid email or password.');
    return { userId: user.id, accountId: membership.account_id, membershipId: membership.id };
  }

  /** A password user's id by e-mail (external identities have no password to reset). */
  async findLocalUserId(email: string): Promise<string | null> {
    const user = await identityRepository.findLocalUser(this.deps.db, email.trim().toLowerCase());
    return user?.id ?? null;
  }

  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await bcrypt.hash(password, PASSWORD_COST);
    await identityRepository.updatePassword(this.deps.db, userId, passwordHash, this.deps.clock.now());
  }

  /** An external identity's principal; first sight provisions a user and a workspace for it. */
  async principalForExternal(identity: ExternalIdentity): Promise<Principal> {
    const { db, clock } = this.deps;
    const find = () => identityRepository.findExternalPrincipal(db, identity);
    let found = await find();
    if (!found) {
      const now = clock.now();
      const userId = randomUUID();
      const name = identity.name ?? identity.email ?? identity.subject;
      try {
        await db.transaction().execute(async (tx) => {
          await identityRepository.insertUser(tx, {
            id: userId,
            email: identity.email ?? `${identity.subject}@external.invalid`,
            name,
            external_issuer: identity.issuer,
            external_subject: identity.subject,
            created_at: now,
            updated_at: now,
          });
          await createWorkspace(
            tx,
            { clock, hooks: this.deps.accountHooks },
            { userId, name: `${name}'s workspace` },
          );
        });
      } catch (error) {
        // A concurrent first request provisioned the same identity: use theirs.
        if ((error as { code?: string }).code !== '23505') throw error;
      }
      found = await find();
      if (!found) throw new AppError('invalid_token', 'Unknown identity.');
    }
    return {
      kind: 'user',
      accountId: found.accountId,
      membershipId: found.membershipId,
      role: found.role as Role,
      userId: found.userId,
      apiKeyId: null,
      scopes: null,
      subject: `user:${found.membershipId}`,
    };
  }
}
