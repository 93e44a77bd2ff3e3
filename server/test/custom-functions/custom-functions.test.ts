import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPlatform, type TestPlatform } from '../harness.ts';
import { createFunction, functionName, ORDER_LOOKUP_SCHEMA } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('custom function definitions', () => {
  test('create answers { data: { id, … } } with the secret once; reads never show it', async () => {
    const c = await t.workspace();
    const created = await createFunction(c, {
      name: 'lookup_order',
      execution_mode: 'webhook',
      timeout_ms: 7000,
    });
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.name, 'lookup_order');
    assert.equal(created.description, 'Looks up an order.');
    assert.deepEqual(created.parameters_schema, ORDER_LOOKUP_SCHEMA);
    assert.equal(created.execution_mode, 'webhook');
    assert.equal(created.webhook_url, 'https://tools.example.com/lookup');
    assert.equal(created.timeout_ms, 7000);
    assert.equal(created.membership_id, c.membershipId);
    assert.match(created.webhook_secret, /^whsec_[A-Za-z0-9_-]{32}$/);
    assert.equal(created.webhook_secret_last4, created.webhook_secret.slice(-4));

    const got = await c.call('GET', `/custom-functions/${created.id}`);
    assert.equal(got.statusCode, 200);
    const { webhook_secret: _secret, ...publicFields } = created;
    assert.deepEqual(got.json().data, { ...publicFields, scenarios: [] });
    assert.ok(!got.body.includes(created.webhook_secret));

    const list = await c.call('GET', '/custom-functions');
    assert.deepEqual(Object.keys(list.json()), ['data']);
    assert.deepEqual(list.json().data, [publicFields]);
    assert.ok(!list.body.includes(created.webhook_secret));
  });

  test('defaults: timeout 5000, execution_mode webhook, empty description and parameters', async () => {
    const c = await t.workspace();
    const response = await c.call('POST', '/custom-functions', {
      name: 'minimal',
      webhook_url: 'https://tools.example.com/x',
      webhook_secret: 'my-own-signing-secret-123',
    });
    assert.equal(response.statusCode, 201, response.body);
    const data = response.json().data;
    assert.equal(data.timeout_ms, 5000);
    assert.equal(data.execution_mode, 'webhook');
    assert.equal(data.description, '');
    assert.deepEqual(data.parameters_schema, { type: 'object', properties: {} });
    assert.equal(data.webhook_secret, 'my-own-signing-secret-123');
  });

  test('limits: name pattern and 64 characters, timeout 100 to 30000', async () => {
    const c = await t.workspace();
    const post = (body: Record<string, unknown>) =>
      c.call('POST', '/custom-functions', {
        name: functionName(),
        webhook_url: 'https://t.example.com/',
        ...body,
      });
    assert.equal((await post({ name: 'n'.repeat(64) })).statusCode, 201);
    for (const name of ['n'.repeat(65), '', 'with space', 'dot.ted']) {
      const response = await post({ name });
      assert.equal(response.statusCode, 400, name);
      assert.equal(response.json().error.param, 'name');
    }
    for (const name of ['end_call', 'web_search', 'END_CALL']) {
      const response = await post({ name });
      assert.equal(response.statusCode, 400, name);
      assert.equal(response.json().error.param, 'name');
      assert.match(response.json().error.message, /reserved/);
    }
    for (const timeout_ms of [100, 30_000]) assert.equal((await post({ timeout_ms })).statusCode, 201);
    for (const timeout_ms of [99, 30_001, 1.5, 'fast']) {
      const response = await post({ timeout_ms });
      assert.equal(response.statusCode, 400, String(timeout_ms));
      assert.equal(response.json().error.param, 'timeout_ms');
    }
    const desc = await post({ description: 'd'.repeat(1025) });
    assert.equal(desc.statusCode, 400);
    assert.equal(desc.json().error.param, 'description');
    for (const [field, value] of [
      ['execution_mode', 'inline'],
      ['webhook_secret', 'short'],
      ['webhook_secret', 'has spaces in the secret value'],
      ['colour', 'red'],
    ] as const) {
      const response = await post({ [field]: value });
      assert.equal(response.statusCode, 400, `${field}=${value}`);
      assert.equal(response.json().error.param, field);
    }
    const missing = await c.call('POST', '/custom-functions', {});
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(
      missing
        .json()
        .errors.map((e: { param: string }) => e.param)
        .sort(),
      ['name', 'webhook_url'],
    );
  });

  test('parameters_schema must be a valid JSON Schema of an object', async () => {
    const c = await t.workspace();
    const post = (parameters_schema: unknown) =>
      c.call('POST', '/custom-functions', {
        name: functionName(),
        webhook_url: 'https://t.example.com/',
        parameters_schema,
      });
    const bad: unknown[] = [
      { type: 'object', properties: { a: { type: 'strin' } } },
      { type: 'object', required: 'a' },
      { type: 'object', properties: { a: { minLength: -1 } } },
      { type: 'array', items: { type: 'string' } },
      { properties: {} },
      { type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } },
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
      ['not', 'an', 'object'],
      'a string',
      null,
    ];
    for (const schema of bad) {
      const response = await post(schema);
      assert.equal(response.statusCode, 400, JSON.stringify(schema));
      assert.equal(response.json().error.param, 'parameters_schema', JSON.stringify(schema));
    }
    const good: unknown[] = [
      { type: 'object' },
      {
        type: 'object',
        properties: { when: { type: 'string', format: 'date-time' } },
        additionalProperties: false,
      },
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { n: { type: 'number' } },
        properties: { amount: { $ref: '#/$defs/n' } },
      },
      {
        type: 'object',
        'x-vendor': true,
        properties: { tags: { type: 'array', items: { enum: ['a', 'b'] } } },
      },
    ];
    for (const schema of good) {
      const response = await post(schema);
      assert.equal(response.statusCode, 201, `${JSON.stringify(schema)}: ${response.body}`);
      assert.deepEqual(response.json().data.parameters_schema, schema);
    }
    const both = await c.call('POST', '/custom-functions', {
      name: 'end_call',
      webhook_url: 'ftp://t.example.com/',
      parameters_schema: { type: 'string' },
    });
    assert.equal(both.statusCode, 400);
    assert.deepEqual(
      both
        .json()
        .errors.map((e: { param: string }) => e.param)
        .sort(),
      ['name', 'parameters_schema', 'webhook_url'],
    );
  });

  test('webhook_url: https (http allowed in development), no credentials, no private literal hosts', async () => {
    const c = await t.workspace();
    const post = (webhook_url: string) =>
      c.call('POST', '/custom-functions', { name: functionName(), webhook_url });
    for (const url of [
      'https://tools.example.com/a',
      'http://tools.example.com/a',
      'http://127.0.0.1:9999/hook',
    ]) {
      assert.equal((await post(url)).statusCode, 201, url);
    }
    for (const url of [
      'ftp://tools.example.com/',
      'not a url',
      'https://user:pass@tools.example.com/',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/hook',
    ]) {
      const response = await post(url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error.param, 'webhook_url', url);
    }
  });
});
