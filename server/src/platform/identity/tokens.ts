import { randomUUID } from 'node:crypto';
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { signingKeyRepository } from './repository.ts';

const ALGORITHM = 'ES256';
const AUDIENCE = 'understudy';
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
const VERIFIED_CACHE_SIZE = 10_000;

export interface UserClaims {
  userId: string;
  accountId: string;
  membershipId: string;
}

/**
 * The embedded identity provider's token service: ES256 JWTs signed with a key kept (sealed) in
 * the database, so every instance signs and verifies with the same key and publishes it at
 * /.well-known/jwks.json.
 */
export class TokenService {
  private readonly verified = new Map<string, { claims: UserClaims; expiresAt: number }>();
  private constructor(
    private readonly kid: string,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  static async load(deps: {
    db: Kysely<DB>;
    secretBox: SecretBox;
    clock: Clock;
    issuer: string;
  }): Promise<TokenService> {
    const { db, secretBox, clock, issuer } = deps;
    let row = await signingKeyRepository.current(db);
    if (!row) {
      const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
      // Two instances starting at once may both generate and store one: both then use `current`.
      await signingKeyRepository.insert(db, {
        kid,
        algorithm: ALGORITHM,
        private_jwk: secretBox.seal(JSON.stringify(await exportJWK(privateKey))),
        public_jwk: JSON.stringify(publicJwk),
        created_at: clock.now(),
      });
      row = (await signingKeyRepository.current(db))!;
    }
    const privateJwk = JSON.parse(secretBox.open(row.private_jwk)) as JWK;
    const publicJwk = row.public_jwk as JWK;
    return new TokenService(
      row.kid,
      (await importJWK(privateJwk, ALGORITHM)) as CryptoKey,
      (await importJWK(publicJwk, ALGORITHM)) as CryptoKey,
      publicJwk,
      issuer,
      clock,
    );
  }

  async sign(claims: UserClaims): Promise<string> {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ acct: claims.accountId, mid: claims.membershipId })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.kid, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
      .sign(this.privateKey);
  }

  /** The claims of a valid, unexpired token of ours; null for anything else. */
  async verify(token: string): Promise<UserClaims | null> {
    // A signature check per request is the costliest part of a read; a verified token stays
    // valid until its own expiry, so remembering it changes nothing but the cost.
    const cached = this.verified.get(token);
    if (cached && cached.expiresAt > this.clock.now().getTime()) return cached.claims;
    const claims = await this.verifySignature(token);
    if (claims) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
    }
    return claims?.claims ?? null;
  }

  private async verifySignature(token: string): Promise<{ claims: UserClaims; expiresAt: number } | null> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: [ALGORITHM],
        currentDate: this.clock.now(),
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.acct !== 'string' ||
        typeof payload.mid !== 'string'
      ) {
        return null;
      }
      return {
        claims: { userId: payload.sub, accountId: payload.acct, membershipId: payload.mid },
        expiresAt: (payload.exp ?? 0) * 1000,
      };
    } catch {
      return null;
    }
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }
}
