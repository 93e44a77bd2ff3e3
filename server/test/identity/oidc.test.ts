import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { bearer, startPlatform, type TestPlatform } from '../harness.ts';

describe('an external OIDC issuer', () => {
  let t: TestPlatform;
  let issuer: string;
  let privateKey: CryptoKey;
  const server = createServer();

  before(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server.on('request', (request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/.well-known/openid-configuration') {
        response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (request.url === '/jwks') {
        response.end(JSON.stringify({ keys: [jwk] }));
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startPlatform({ env: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: 'understudy-tests' } });
  });
  after(async () => {
    await t.close();
    server.close();
  });

  const token = (subject: string, audience = 'understudy-tests') =>
    new SignJWT({ email: `${subject}@idp.example`, name: 'External User' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(privateKey);

  test('its tokens are accepted, provisioning one workspace per subject', async () => {
    const subject = `ext-${Date.now()}`;
    const first = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets',
      headers: bearer(await token(subject)),
      payload: { name: 'k' },
    });
    assert.equal(first.statusCode, 201);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/api-secrets',
      headers: bearer(await token(subject)),
    });
    assert.equal(list.json().data.length, 1, 'the same subject lands in the same workspace');
  });

  test('a wrong audience is refused', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/api-secrets',
      headers: bearer(await token('someone', 'another-audience')),
    });
    assert.equal(response.statusCode, 401);
  });
});
