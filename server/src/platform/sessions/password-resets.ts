import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { invalidParam } from '../../core/http/errors.ts';
import type { IdentityService } from '../identity/service.ts';
import { randomToken, tokenHash } from './cookies.ts';
import { passwordResetRepository } from './repository.ts';
import type { OpenSession, SessionService } from './service.ts';

const RESET_LIFETIME_MS = 60 * 60 * 1000;

export interface PasswordResetDeps {
  db: Kysely<DB>;
  clock: Clock;
  logger: Logger;
  identity: IdentityService;
  sessions: SessionService;
  publicUrl: string;
  /** The link is written to the log in development only: no mail delivery is built yet. */
  logLinks: boolean;
}

/** Forgotten passwords: a single-use link valid one hour, only its token's SHA-256 stored. */
export class PasswordResetService {
  constructor(private readonly deps: PasswordResetDeps) {}

  /** Answers the same whether or not the address has an account (no enumeration). */
  async request(email: string): Promise<void> {
    const { db, clock, logger, identity, publicUrl } = this.deps;
    const userId = await identity.findLocalUserId(email);
    if (!userId) return;
    const token = randomToken();
    const now = clock.now();
    await passwordResetRepository.insert(db, {
      token_hash: tokenHash(token),
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_LIFETIME_MS),
      used_at: null,
    });
    if (this.deps.logLinks) {
      const link = `${publicUrl}/#/reset-password?token=${token}`;
      const address = email.trim().toLowerCase();
      logger.info({ user_id: userId, reset_url: link }, `Password reset link for ${address}: ${link}`);
    } else {
      logger.info({ user_id: userId }, 'password reset requested (links are not mailed: not built yet)');
    }
  }

  /** Sets the new password and ends the user's other sessions; the link then stops working. */
  async confirm(input: { token: string; password: string }, current: OpenSession | null): Promise<void> {
    const { db, clock, identity, sessions } = this.deps;
    const now = clock.now();
    const userId = await passwordResetRepository.consume(db, tokenHash(input.token), now);
    if (!userId)
      throw invalidParam('token', 'This reset link is invalid, used or expired; ask for a new one.');
    await identity.setPassword(userId, input.password);
    await passwordResetRepository.retireForUser(db, userId, now);
    await sessions.endOthers(userId, current);
  }

  async purgeExpired(): Promise<void> {
    await passwordResetRepository.deleteExpired(this.deps.db, this.deps.clock.now());
  }
}
