import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Clock } from '../../core/clock.ts';
import { safeEqual } from '../../core/crypto/hashing.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { ExternalIdentity } from '../identity/oidc.ts';
import { pkceChallenge, randomToken } from './cookies.ts';

/** How long the browser may spend at the identity provider between /start and /callback. */
export const OIDC_LOGIN_TTL_SECONDS = 10 * 60;
const FETCH_TIMEOUT_MS = 5000;

export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  providerName: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** What the sealed cookie carries from /start to /callback. */
interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

/** A failed sign-in, as the code the sign-in page shows (`/#/sign-in?error=<code>`). */
export class OidcLoginError extends Error {
  constructor(
    readonly code:
      | 'oidc_unavailable'
      | 'oidc_denied'
      | 'oidc_state_mismatch'
      | 'oidc_exchange_failed'
      | 'oidc_token_invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sign-in through the external OpenID Connect issuer: the authorization code flow with PKCE
 * (S256), `state` and `nonce`, all three kept in a sealed HttpOnly cookie between the two legs.
 */
export class OidcLogin {
  private discovery: Promise<Discovery> | null = null;
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(
    private readonly deps: {
      config: OidcClientConfig;
      publicUrl: string;
      secretBox: SecretBox;
      clock: Clock;
    },
  ) {}

  get provider() {
    return { name: this.deps.config.providerName, issuer: this.deps.config.issuer };
  }

  get redirectUri() {
    return `${this.deps.publicUrl}/v1/auth/oidc/callback`;
  }

  /** The issuer's authorization URL to redirect to, and the sealed value of the login cookie. */
  async start(): Promise<{ location: string; sealed: string }> {
    const { config, secretBox, clock } = this.deps;
    const endpoints = await this.endpoints();
    const pending: PendingLogin = {
      state: randomToken(),
      nonce: randomToken(),
      verifier: randomToken(),
      expiresAt: clock.now().getTime() + OIDC_LOGIN_TTL_SECONDS * 1000,
    };
    const url = new URL(endpoints.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: config.clientId,
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: pkceChallenge(pending.verifier),
      code_challenge_method: 'S256',
    }).toString();
    return { location: url.toString(), sealed: secretBox.seal(JSON.stringify(pending)) };
  }

  /** The identity the issuer vouches for, after the code exchange and the id_token's checks. */
  async finish(
    query: { code?: string; state?: string; error?: string },
    sealed: string | null,
  ): Promise<ExternalIdentity> {
    const { config, clock } = this.deps;
    if (query.error) throw new OidcLoginError('oidc_denied', `The identity provider said: ${query.error}`);
    const pending = this.unseal(sealed);
    if (!pending || !query.state || !safeEqual(query.state, pending.state) || !query.code) {
      throw new OidcLoginError('oidc_state_mismatch', 'The sign-in expired or was started elsewhere.');
    }
    const endpoints = await this.endpoints();
    const idToken = await this.exchange(endpoints.token_endpoint, query.code, pending.verifier);
    this.jwks ??= createRemoteJWKSet(new URL(endpoints.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS });
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(idToken, this.jwks, {
        issuer: config.issuer,
        audience: config.clientId,
        currentDate: clock.now(),
      }));
    } catch (error) {
      throw new OidcLoginError('oidc_token_invalid', `The id_token was refused: ${(error as Error).message}`);
    }
    if (typeof payload.nonce !== 'string' || !safeEqual(payload.nonce, pending.nonce)) {
      throw new OidcLoginError('oidc_token_invalid', 'The id_token does not carry this sign-in’s nonce.');
    }
    if (typeof payload.sub !== 'string')
      throw new OidcLoginError('oidc_token_invalid', 'The id_token has no sub.');
    return {
      issuer: config.issuer,
      subject: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : null,
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  }

  private unseal(sealed: string | null): PendingLogin | null {
    if (!sealed) return null;
    try {
      const pending = JSON.parse(this.deps.secretBox.open(sealed)) as PendingLogin;
      return pending.expiresAt > this.deps.clock.now().getTime() ? pending : null;
    } catch {
      return null;
    }
  }

  private async exchange(tokenEndpoint: string, code: string, verifier: string): Promise<string> {
    const { clientId, clientSecret } = this.deps.config;
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    // client_secret_basic, which every provider must support (RFC 6749 §2.3.1).
    if (clientSecret) {
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    let response: Response;
    try {
      response = await fetch(tokenEndpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new OidcLoginError(
        'oidc_exchange_failed',
        `The token endpoint did not answer: ${(error as Error).message}`,
      );
    }
    const answer = (await response.json().catch(() => ({}))) as { id_token?: unknown; error?: unknown };
    if (!response.ok || typeof answer.id_token !== 'string') {
      throw new OidcLoginError(
        'oidc_exchange_failed',
        `The token endpoint refused the code (${response.status} ${String(answer.error ?? '')}).`,
      );
    }
    return answer.id_token;
  }

  private endpoints(): Promise<Discovery> {
    this.discovery ??= this.discover().catch((error) => {
      this.discovery = null; // try again on the next sign-in
      throw error;
    });
    return this.discovery;
  }

  private async discover(): Promise<Discovery> {
    const url = `${this.deps.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const document = (await response.json()) as Partial<Discovery>;
      if (!document.authorization_endpoint || !document.token_endpoint || !document.jwks_uri) {
        throw new Error('the discovery document lacks an endpoint');
      }
      return document as Discovery;
    } catch (error) {
      throw new OidcLoginError('oidc_unavailable', `OIDC discovery failed: ${(error as Error).message}`);
    }
  }
}
