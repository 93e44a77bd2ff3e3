// docs/reliability.md, "Bad input": too-deep JSON, unpaired surrogates and malformed multipart are
// 400s naming the parameter, never 500s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findBadInput, MAX_JSON_DEPTH } from '../../src/core/http/input-checks.ts';
import { createFunction, functionName } from '../custom-functions/helpers.ts';
import { type ApiClient, bearer, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

/** `levels` objects nested in one another, as JSON text (too deep for JSON.stringify to build). */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

describe('bad input is a 400 naming the parameter', () => {
  let t: TestPlatform;
  let ws: ApiClient;
  before(async () => {
    t = await startPlatform();
    ws = await t.workspace();
  });
  after(() => t.close());

  const sendJson = (method: string, url: string, json: string) =>
    t.app.inject({
      method: method as 'POST',
      url: `/v1${url}`,
      headers: { ...bearer(ws.key), 'content-type': 'application/json' },
      payload: json,
    });

  test('deeply nested metrics on POST and PUT /v1/goals', async () => {
    for (const levels of [MAX_JSON_DEPTH, 10_000]) {
      const response = await sendJson(
        'POST',
        '/goals',
        `{"name":"g","instructions":"x","metrics":${nested(levels)}}`,
      );
      const body = expectError(response, 400, 'metrics');
      assert.equal(body.error.code, 'parameter_invalid');
      assert.ok(response.headers['x-request-id']);
    }
    const goal = ok(await ws.call('POST', '/goals', { name: 'g', instructions: 'x' }), 201);
    const put = await sendJson('PUT', `/goals/${goal.id}`, `{"metrics":${nested(20_000)}}`);
    expectError(put, 400, 'metrics');
  });

  test('the body itself counts as a level: metrics may nest one level less than the bound', async () => {
    const response = await sendJson(
      'POST',
      '/goals',
      `{"name":"g","instructions":"x","metrics":${nested(MAX_JSON_DEPTH - 1)}}`,
    );
    ok(response, 201);
  });

  test('deeply nested parameters_schema on POST and PATCH /v1/custom-functions', async () => {
    const schema = `{"type":"object","properties":${nested(10_000)}}`;
    const created = await sendJson(
      'POST',
      '/custom-functions',
      `{"name":"${functionName()}","webhook_url":"https://tools.example.com/x","parameters_schema":${schema}}`,
    );
    expectError(created, 400, 'parameters_schema');
    const fn = await createFunction(ws);
    expectError(
      await sendJson('PATCH', `/custom-functions/${fn.id}`, `{"parameters_schema":${schema}}`),
      400,
      'parameters_schema',
    );
  });

  test('a too-deep body at the top level names body', async () => {
    const response = await sendJson('POST', '/goals', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expectError(response, 400, 'body');
  });

  test('unpaired surrogates in body values and body keys are refused', async () => {
    expectError(await sendJson('POST', '/goals', '{"name":"a\\ud800b","instructions":"x"}'), 400, 'name');
    expectError(
      await sendJson('POST', '/goals', '{"name":"a","instructions":"x\\udc00"}'),
      400,
      'instructions',
    );
    expectError(
      await sendJson('POST', '/goals', '{"name":"a","instructions":"x","\\ud800":1}'),
      400,
      '\ud800',
    );
    // A pair is one character (an emoji) and is stored as sent.
    const emoji = ok(await sendJson('POST', '/goals', '{"name":"\\ud83d\\ude00","instructions":"x"}'), 201);
    assert.equal(emoji.name, '😀');
  });

  describe('malformed multipart on POST /v1/scenarios/create-with-gpt', () => {
    const upload = (contentType: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/scenarios/create-with-gpt',
        headers: { ...bearer(ws.key), 'content-type': contentType },
        payload,
      });
    const field = '--x\r\nContent-Disposition: form-data; name="userInput"\r\n\r\nhello';

    test('without a boundary', async () => {
      const body = expectError(await upload('multipart/form-data', `${field}\r\n--x--\r\n`), 400, 'body');
      assert.match(body.error.message, /boundary/);
    });

    test('cut short in a field', async () => {
      expectError(await upload('multipart/form-data; boundary=x', field), 400, 'body');
    });

    test('cut short in the file', async () => {
      const file =
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhel';
      expectError(await upload('multipart/form-data; boundary=x', file), 400, 'file');
    });

    test('an empty boundary and one longer than the parser takes', async () => {
      expectError(await upload('multipart/form-data; boundary=', `${field}\r\n--x--\r\n`), 400, 'body');
      const long = 'b'.repeat(300);
      expectError(await upload(`multipart/form-data; boundary=${long}`, `--${long}\r\n\r\n`), 400, 'body');
    });
  });
});

test('the input walk is iterative: half a million levels are checked without overflowing', () => {
  let value: unknown = 'leaf';
  for (let i = 0; i < 500_000; i += 1) value = [value];
  assert.deepEqual(findBadInput(value, ''), { problem: 'depth', param: 'body' });
  assert.deepEqual(findBadInput({ goals: [{ metrics: value }] }, ''), { problem: 'depth', param: 'goals' });
  assert.deepEqual(findBadInput({ tags: ['ok', 'bad\u0000'] }, ''), { problem: 'nul', param: 'tags[1]' });
  // Percent-decoding never yields a lone surrogate (invalid UTF-8 stays encoded), the check holds anyway.
  assert.deepEqual(findBadInput({ q: ['x', '\udfff'] }, ''), { problem: 'surrogate', param: 'q[1]' });
  assert.equal(findBadInput({ name: 'fine 😀', nested: [[{ a: 1 }]] }, ''), null);
});
