import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Clock } from '../../core/clock.ts';

export interface ExternalIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

/**
 * Verifies tokens of an external OpenID Connect issuer against its published JWKS (found through
 * its discovery document; jose caches the keys and refetches on an unknown kid).
 */
export class OidcVerifier {
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
    private readonly clock: Clock,
  ) {}

  private async keySet() {
    if (this.jwks) return this.jwks;
    const discovery = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(discovery, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`OIDC discovery failed: ${response.status}`);
    const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: string };
    if (!jwksUri) throw new Error('OIDC discovery document has no jwks_uri');
    this.jwks = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5000 });
    return this.jwks;
  }

  async verify(token: string): Promise<ExternalIdentity | null> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySet(), {
        issuer: this.issuer,
        audience: this.audience,
        currentDate: this.clock.now(),
      }));
    } catch {
      return null;
    }
    if (typeof payload.sub !== 'string') return null;
    return {
      issuer: this.issuer,
      subject: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : null,
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  }
}
