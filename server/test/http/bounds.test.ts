import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { bearer, startPlatform, type TestPlatform } from '../harness.ts';
import { type RawResponse, rawRequest } from './raw-http.ts';

// Short enough for the tests to run quickly; the tests assert behaviour, never how long it took.
const SHORT_TIMEOUTS = {
  HTTP_HEADERS_TIMEOUT_MS: '400',
  HTTP_BODY_TIMEOUT_MS: '400',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '400',
};

/** The spec's error shape, the X-Request-Id header matching its request_id, and a closed connection. */
function assertAnswered(response: RawResponse, status: number, code: string, param?: string) {
  assert.equal(response.status, status, JSON.stringify(response));
  assert.equal(response.body?.error?.code, code, JSON.stringify(response.body));
  assert.equal(response.body.status, 'error');
  assert.equal(response.body.error.message, response.body.message);
  if (param !== undefined) assert.equal(response.body.error.param, param);
  assert.match(response.headers['x-request-id'] ?? '', /^req_[0-9a-f]{24}$/);
  assert.equal(response.body.request_id, response.headers['x-request-id']);
  assert.equal(response.closed, true, 'the server closes the connection');
}

describe('bounds and timeouts of the HTTP server', () => {
  let t: TestPlatform;
  let port: number;
  let key: string;
  let userToken: string;
  before(async () => {
    t = await startPlatform({ env: SHORT_TIMEOUTS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const workspace = await t.workspace();
    key = workspace.key;
    userToken = workspace.token;
  });
  after(() => t.close());

  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  test('a body that stops arriving is cut with 408 request_timeout', async () => {
    const response = await rawRequest(
      port,
      [
        head([
          'POST /v1/personas HTTP/1.1',
          'Host: localhost',
          `Authorization: Bearer ${key}`,
          'Content-Type: application/json',
          'Content-Length: 100000',
        ]),
        '{"name":',
      ],
      { pauseMs: 50 },
    );
    assertAnswered(response, 408, 'request_timeout', 'body');
  });

  test('a connection that never completes its headers is closed with 408', async () => {
    const response = await rawRequest(port, ['GET /healthz HTTP/1.1\r\nHost: localhost\r\n']);
    assertAnswered(response, 408, 'request_timeout');
  });

  test('a silent connection is closed', async () => {
    const response = await rawRequest(port, []);
    assert.equal(response.closed, true);
  });

  test('an idle keep-alive connection is closed after its answer', async () => {
    const response = await rawRequest(port, [head(['GET /healthz HTTP/1.1', 'Host: localhost'])]);
    assert.equal(response.status, 200);
    assert.equal(response.closed, true);
  });

  test('a chunked body over the limit is answered 413 payload_too_large', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'a').toString();
    const size = (256 * 1024).toString(16);
    const response = await rawRequest(port, [
      head([
        'POST /v1/personas HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ]),
      ...Array.from({ length: 6 }, () => `${size}\r\n${chunk}\r\n`),
      '0\r\n\r\n',
    ]);
    assertAnswered(response, 413, 'payload_too_large', 'body');
  });

  const malformed: Array<[string, string, number, string, string | null]> = [
    [
      'a bad chunk size',
      `${head(['POST /v1/personas HTTP/1.1', 'Host: localhost', 'Transfer-Encoding: chunked'])}zz\r\nab\r\n`,
      400,
      'invalid_request',
      'body',
    ],
    [
      'both Content-Length and Transfer-Encoding',
      head([
        'POST /v1/personas HTTP/1.1',
        'Host: localhost',
        'Content-Length: 4',
        'Transfer-Encoding: chunked',
      ]),
      400,
      'invalid_request',
      'Transfer-Encoding',
    ],
    [
      'a NUL in the path',
      head(['GET /v1/pers\0onas HTTP/1.1', 'Host: localhost']),
      400,
      'invalid_request',
      'path',
    ],
    [
      'a 60 KB URL',
      head([`GET /v1/personas?q=${'a'.repeat(60_000)} HTTP/1.1`, 'Host: localhost']),
      431,
      'headers_too_large',
      'headers',
    ],
    [
      'an unknown method',
      head(['FOO /v1/personas HTTP/1.1', 'Host: localhost']),
      400,
      'invalid_request',
      'method',
    ],
  ];
  for (const [name, request, status, code, param] of malformed) {
    test(`${name} is answered ${status} ${code} in the spec's shape`, async () => {
      assertAnswered(await rawRequest(port, [request]), status, code, param ?? undefined);
    });
  }

  test("a method Node parses but no route has is answered in the spec's shape", async () => {
    const response = await t.app.inject({
      method: 'PROPFIND' as 'GET',
      url: '/v1/personas',
      headers: bearer(key),
    });
    assert.ok([404, 405].includes(response.statusCode), response.body);
    assert.ok(response.json().error.code);
    assert.equal(response.json().request_id, response.headers['x-request-id']);
  });

  test('a route that takes no body does not buffer a large one', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/api-secrets/1/revoke',
      headers: { ...bearer(userToken), 'content-type': 'application/json' },
      payload: JSON.stringify({ padding: 'x'.repeat(64 * 1024) }),
    });
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().error.param, 'body');
  });
});
