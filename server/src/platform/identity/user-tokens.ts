// A user token (the embedded provider's JWT) as a credential of either service: its claims, and the
// member's role read now (a removed member's token names nobody; a new role applies at once).
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import type { Role } from '../../core/http/roles.ts';
import { identityRepository } from './repository.ts';
import type { TokenService } from './tokens.ts';

export interface UserTokenIdentity {
  userId: string;
  accountId: string;
  membershipId: string;
  role: Role;
}

export class UserTokenVerifier {
  constructor(
    readonly tokens: TokenService,
    private readonly db: Kysely<DB>,
  ) {}

  async verify(token: string): Promise<UserTokenIdentity | null> {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const row = await identityRepository.membershipRole(this.db, claims.membershipId, claims.accountId);
    return row ? { ...claims, role: row.role as Role } : null;
  }
}
