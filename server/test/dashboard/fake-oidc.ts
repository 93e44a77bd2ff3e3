// A small OpenID Connect provider on loopback for the sign-in tests: discovery, an authorize
// endpoint that redirects straight back with a code (no login form), a token endpoint that checks
// the PKCE verifier and the client, and a JWKS with a jose-generated key.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface FakeOidcUser {
  sub: string;
  email: string;
  name: string;
}

export interface FakeOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization signs in as. */
  user: FakeOidcUser;
  /** Set to make /authorize answer `?error=…` instead of a code. */
  denyWith: string | null;
  /** Set to sign the next id_token with this nonce instead of the one asked for. */
  nonceOverride: string | null;
  /** Token requests seen, with whether their verifier matched. */
  tokenRequests: Array<{ verifierMatched: boolean; clientAuthenticated: boolean }>;
  close(): Promise<void>;
}

interface PendingCode {
  challenge: string;
  nonce: string;
  redirectUri: string;
  user: FakeOidcUser;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startFakeOidcProvider(
  options: { clientId?: string; clientSecret?: string } = {},
): Promise<FakeOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fake-1', alg: 'ES256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const server: Server = createServer();
  // Idle connections are closed by the client only: a server-side close racing the platform's reuse
  // of the socket fails its next request under load (as the delivery test receiver learned).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: FakeOidcProvider = {
    issuer,
    clientId: options.clientId ?? 'understudy-dashboard',
    clientSecret: options.clientSecret ?? 'fake-client-secret',
    user: { sub: 'fake-subject-1', email: 'oidc.user@example.com', name: 'Olive Idc' },
    denyWith: null,
    nonceOverride: null,
    tokenRequests: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const signIdToken = (code: PendingCode) =>
    new SignJWT({ email: code.user.email, name: code.user.name, nonce: provider.nonceOverride ?? code.nonce })
      .setProtectedHeader({ alg: 'ES256', kid: 'fake-1' })
      .setIssuer(issuer)
      .setAudience(provider.clientId)
      .setSubject(code.user.sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey as CryptoKey);

  server.on('request', async (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const query = url.searchParams;
      const redirect = new URL(query.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', query.get('state') ?? '');
      if (provider.denyWith) {
        redirect.searchParams.set('error', provider.denyWith);
      } else if (
        query.get('client_id') !== provider.clientId ||
        query.get('response_type') !== 'code' ||
        query.get('code_challenge_method') !== 'S256' ||
        !query.get('code_challenge') ||
        !query.get('nonce')
      ) {
        redirect.searchParams.set('error', 'invalid_request');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          challenge: query.get('code_challenge')!,
          nonce: query.get('nonce')!,
          redirectUri: query.get('redirect_uri')!,
          user: { ...provider.user },
        });
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('iss', issuer);
      }
      response.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await readBody(request));
      const basic = `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}`;
      const clientAuthenticated = request.headers.authorization === basic;
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const verifierMatched =
        !!code && createHash('sha256').update(verifier).digest('base64url') === code.challenge;
      provider.tokenRequests.push({ verifierMatched, clientAuthenticated });
      if (
        !code ||
        !verifierMatched ||
        !clientAuthenticated ||
        form.get('grant_type') !== 'authorization_code' ||
        form.get('redirect_uri') !== code.redirectUri
      ) {
        return json(400, { error: 'invalid_grant' });
      }
      return json(200, { access_token: 'opaque', token_type: 'Bearer', id_token: await signIdToken(code) });
    }
    json(404, { error: 'not_found' });
  });
  return provider;
}
