import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { safeEqual } from '../../core/crypto/hashing.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { Role } from '../../core/http/roles.ts';
import type { UserClaims } from '../identity/tokens.ts';
import {
  type CookieWriter,
  csrfTokenOf,
  randomToken,
  readCookie,
  SESSION_COOKIE,
  tokenHash,
} from './cookies.ts';
import { sessionRepository } from './repository.ts';

/** A session ends after this long unused (sliding) … */
export const IDLE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** … and at the latest this long after sign-in, however busy. */
export const ABSOLUTE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Use moves the sliding expiry at most this often (one write a minute, not one per request). */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionView {
  user: { id: string; email: string; name: string };
  account: { id: string; name: string };
  /** The signed-in member's role in this workspace (docs/teams.md). */
  role: Role;
  csrf_token: string;
  expires_at: string;
}

/** A session resolved from a request's cookie. */
export interface OpenSession {
  tokenHash: string;
  csrfToken: string;
  principal: Principal;
  view: SessionView;
}

/**
 * Dashboard sessions: a random cookie token whose SHA-256 names a row with the user, membership
 * and workspace it signs in as. The cookie is one more credential of the public API.
 */
export class SessionService {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; cookies: CookieWriter }) {}

  /** Starts a session; the caller sets `cookie` on its response. */
  async start(claims: UserClaims): Promise<{ cookie: string; session: OpenSession }> {
    const { db, clock } = this.deps;
    const token = randomToken();
    const now = clock.now();
    await sessionRepository.insert(db, {
      token_hash: tokenHash(token),
      user_id: claims.userId,
      membership_id: claims.membershipId,
      account_id: claims.accountId,
      created_at: now,
      expires_at: new Date(now.getTime() + IDLE_LIFETIME_MS),
      last_seen_at: now,
    });
    const session = await this.open(token);
    if (!session) throw new Error('a session just created was not found');
    return { cookie: this.deps.cookies.session(token, ABSOLUTE_LIFETIME_MS / 1000), session };
  }

  /** The request's live session (moving its sliding expiry), or null. */
  async fromRequest(request: FastifyRequest): Promise<OpenSession | null> {
    const token = readCookie(request, SESSION_COOKIE);
    return token ? this.open(token) : null;
  }

  async end(session: OpenSession): Promise<void> {
    await sessionRepository.delete(this.deps.db, session.tokenHash);
  }

  /** The workspaces the session's user belongs to, oldest membership first. */
  async workspacesOf(session: OpenSession): Promise<Array<{ id: string; name: string; role: string }>> {
    const rows = await sessionRepository.workspacesOf(this.deps.db, session.principal.userId!);
    return rows.map(({ id, name, role }) => ({ id, name, role }));
  }

  /** Moves the session to the user's membership in `accountId` (404 when they have none). */
  async switchWorkspace(session: OpenSession, accountId: string): Promise<OpenSession> {
    const { db } = this.deps;
    const workspaces = await sessionRepository.workspacesOf(db, session.principal.userId!);
    const target = workspaces.find((workspace) => workspace.id === accountId);
    if (!target) {
      throw new AppError('resource_not_found', 'You are not a member of this workspace.', {
        param: 'account_id',
      });
    }
    await sessionRepository.moveTo(db, session.tokenHash, target.membershipId, target.id);
    const moved = await this.load(session.tokenHash, session.csrfToken);
    if (!moved) throw new AppError('unauthorized', 'Not signed in.');
    return moved;
  }

  /** Ends every session of the user except `keep` (after a password change). */
  async endOthers(userId: string, keep: OpenSession | null): Promise<void> {
    const kept = keep && keep.principal.userId === userId ? keep.tokenHash : null;
    await sessionRepository.deleteForUser(this.deps.db, userId, kept);
  }

  /** The `X-CSRF-Token` header matches the session's token (compared in constant time). */
  static csrfMatches(request: FastifyRequest, session: OpenSession): boolean {
    const sent = request.headers['x-csrf-token'];
    return typeof sent === 'string' && safeEqual(sent, session.csrfToken);
  }

  async purgeExpired(): Promise<void> {
    await sessionRepository.deleteExpired(this.deps.db, this.deps.clock.now());
  }

  private open(token: string): Promise<OpenSession | null> {
    return this.load(tokenHash(token), csrfTokenOf(token));
  }

  private async load(hash: string, csrfToken: string): Promise<OpenSession | null> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const row = await sessionRepository.findLive(db, hash, now);
    if (!row) return null;
    let expiresAt = new Date(row.expires_at);
    if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_INTERVAL_MS) {
      const absolute = new Date(row.created_at).getTime() + ABSOLUTE_LIFETIME_MS;
      expiresAt = new Date(Math.min(now.getTime() + IDLE_LIFETIME_MS, absolute));
      await sessionRepository.touch(db, hash, { last_seen_at: now, expires_at: expiresAt });
    }
    return {
      tokenHash: hash,
      csrfToken,
      principal: {
        kind: 'user',
        accountId: row.account_id,
        membershipId: row.membership_id,
        role: row.role as Role,
        userId: row.user_id,
        apiKeyId: null,
        scopes: null,
        // The same budgets and idempotency scope as the user's token.
        subject: `user:${row.membership_id}`,
      },
      view: {
        user: { id: row.user_id, email: row.user_email, name: row.user_name },
        account: { id: row.account_id, name: row.account_name },
        role: row.role as Role,
        csrf_token: csrfToken,
        expires_at: expiresAt.toISOString(),
      },
    };
  }
}
