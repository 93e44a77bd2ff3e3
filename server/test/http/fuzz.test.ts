// Property-based fuzz of both HTTP APIs (docs/reliability.md, "Bad input"): every operation of the
// committed OpenAPI documents gets generated bad input (wrong types, huge and deeply nested values,
// text with NULs and unpaired surrogates, unknown fields, odd path ids, odd query parameters,
// malformed JSON and multipart) and must answer without a 5xx, every 4xx in the spec's error shape
// with X-Request-Id. fast-check drives it from a fixed seed (FUZZ_SEED, FUZZ_RUNS override): a
// failure prints the seed, operation and request, so it replays exactly.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AppInstance } from '../../src/core/http/types.ts';
import { OWN_COUNTERS } from '../harness.ts';
import { startMailbox } from '../mailbox/app.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const LOOPBACK_URL = 'http://127.0.0.1:9/hook';

/** Any JSON value, or any text (lone surrogates and control characters included). */
const ANY_VALUE = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** The choices a bad request is made of, drawn from fast-check's generator (`fc.gen()`). */
type Draw = ReturnType<typeof drawFrom>;

function drawFrom(g: fc.GeneratorValue) {
  return {
    chance: (p: number) => g(fc.integer, { min: 0, max: 999 }) < p * 1000,
    pick: <T>(items: readonly T[]): T => g(() => fc.constantFrom(...items)),
    /** One of ANY_VALUE, as JSON text. */
    generatedValue: (): string => JSON.stringify(g(() => ANY_VALUE)),
  };
}

const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Bad values as JSON text: some too deep for JSON.stringify to build, so bodies are sent as text. */
const BAD_VALUES = [
  'null',
  'true',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e999',
  '-1e999',
  '9007199254740993',
  '1e308',
  '""',
  '" "',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"x\\udc00y"',
  '"\\ud83d\\ude00"',
  '"\\u202e\\ufeff"',
  '"../../etc/passwd"',
  '"<script>alert(1)</script>"',
  '"\' OR 1=1 --"',
  '"2026-13-45T99:99:99Z"',
  '"not-a-uuid"',
  JSON.stringify('x'.repeat(300)),
  JSON.stringify('x'.repeat(200_000)),
  '[]',
  '{}',
  '[null]',
  '["\\ud800"]',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  nestedObjects(40),
  nestedObjects(5_000),
  nestedArrays(100_000),
  `[${Array.from({ length: 2_000 }, () => '"x"').join(',')}]`,
];

const BAD_BODIES = ['', '{', '{"a":', '{,}', 'nul', '\u0000', '[1,2', '{"a":1}}', '"\\ud800"'];

const BAD_IDS = [
  'not-an-id',
  '0',
  '-1',
  '1.5',
  '99999999999999999999999',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%00',
  '%2e%2e',
  'null',
  `${'a'.repeat(600)}`,
  "'%20OR%201=1",
];

const BAD_QUERY_VALUES = [
  '',
  '-1',
  '0',
  '1e999',
  'NaN',
  'true',
  '%00',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '99999999999999999999999',
  'x'.repeat(3_000),
  '%5B%5D',
];

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  query: string[];
  /** Request body media types, and the example and properties of the JSON one. */
  media: string[];
  example: Record<string, unknown> | undefined;
  properties: string[];
}

function operationsOf(document: any, prefix: string): Operation[] {
  const components = document.components?.schemas ?? {};
  const deref = (schema: any) =>
    schema?.$ref ? components[String(schema.$ref).replace('#/components/schemas/', '')] : schema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const content = op.requestBody?.content ?? {};
      const json = content['application/json'] ?? content['multipart/form-data'];
      const schema = deref(json?.schema);
      const example = json?.example ?? schema?.examples?.[0];
      operations.push({
        method,
        path: `${prefix}${path}`,
        query: [...(item.parameters ?? []), ...(op.parameters ?? [])]
          .filter((p: any) => p.in === 'query')
          .map((p: any) => p.name),
        media: Object.keys(content),
        example: example && typeof example === 'object' && !Array.isArray(example) ? example : undefined,
        properties: Object.keys(schema?.properties ?? {}),
      });
    }
  }
  return operations;
}

/** Fields that hold URLs point at a closed loopback port: nothing the fuzz sends leaves the machine. */
function loopbackUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(loopbackUrls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        /url$/i.test(key) && typeof item === 'string' ? LOOPBACK_URL : loopbackUrls(item),
      ]),
    );
  }
  return value;
}

const RUN = randomUUID().slice(0, 8);

/** Names unique across the database (inbox usernames, domains, list entries) get this run's own, for shared PostgreSQL. */
function ownNames(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = { ...(value as Record<string, unknown>) };
  if (typeof record.username === 'string') record.username = `${record.username}-${RUN}`;
  if (typeof record.domain === 'string') record.domain = `fuzz-${RUN}.${record.domain}`;
  // List entries (`spam.example`) land in the admin's namespace, shared by every run on one database.
  if (typeof record.value === 'string') record.value = `fuzz-${RUN}.${record.value}`;
  return record;
}

/** `{"field": <fragment>, ...rest}` as text. */
function withField(base: Record<string, unknown>, field: string, fragment: string): string {
  const { [field]: _dropped, ...rest } = base;
  const tail = JSON.stringify(rest).slice(1);
  return `{${JSON.stringify(field)}:${fragment}${tail === '}' ? '' : ','}${tail}`;
}

interface Target {
  name: string;
  app: AppInstance;
  token: string;
  operations: Operation[];
  /** Ids of created resources, by the collection path they were created on. */
  ids: Map<string, string>;
}

/** The id a placeholder stands for: created on the path before it, else on a collection of that name. */
function realId(target: Target, path: string, placeholder: string): string | undefined {
  const before = path.slice(0, path.indexOf(`{${placeholder}}`) - 1);
  const direct = target.ids.get(before);
  if (direct) return direct;
  const last = before.split('/').pop();
  for (const [collection, id] of target.ids) if (collection.split('/').pop() === last) return id;
  return undefined;
}

/** The operation's example body, ready to send: loopback URLs, this run's names, the seeded ids. */
function exampleBody(target: Target, op: Operation): Record<string, unknown> {
  return withSeededIds(target, ownNames(loopbackUrls(op.example ?? {}))) as Record<string, unknown>;
}

/** A created resource's id: `id`, else its first `…_id` field (the mailbox's `inbox_id`, `entry_id`). */
function idOf(body: any): string | undefined {
  const record = body?.data?.created?.[0] ?? body?.data ?? body;
  if (!record || typeof record !== 'object') return undefined;
  const key =
    'id' in record ? 'id' : Object.keys(record).find((name) => name.endsWith('_id') && record[name]);
  return key === undefined || record[key] === null ? undefined : String(record[key]);
}

/** Example fields naming another resource (`persona_id`) name the seeded one of that kind instead. */
function withSeededIds(target: Target, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const list = Array.isArray(item) && item.every((entry) => typeof entry === 'string');
      const kind = key.match(/^(\w+)_ids?$/)?.[1] ?? (list ? key : undefined);
      if (!kind || (!list && typeof item !== 'string')) return [key, item];
      const names = [`/${kind}`, `/${kind}s`, `/${kind}es`];
      const seeded = [...target.ids].find(([collection]) =>
        names.some((name) => collection.endsWith(name)),
      )?.[1];
      return [key, seeded === undefined ? item : list ? [seeded] : seeded];
    }),
  );
}

/** Creates one resource per collection from the document's example, so path ids can name real ones. */
async function seed(target: Target): Promise<void> {
  for (const op of target.operations) {
    if (op.method !== 'post' || !op.media.includes('application/json') || !op.example) continue;
    if (!target.operations.some((other) => other.method === 'get' && other.path === op.path)) continue;
    const path = op.path.replace(/\{(\w+)\}/g, (_, name) => realId(target, op.path, name) ?? randomUUID());
    const response = await target.app.inject({
      method: 'POST',
      url: path,
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(exampleBody(target, op)),
    });
    const id = response.statusCode < 300 ? idOf(response.json()) : undefined;
    if (id) target.ids.set(op.path, id);
    else if (process.env.FUZZ_DEBUG)
      console.log('seed', op.path, response.statusCode, response.body.slice(0, 300));
  }
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function badRequest(target: Target, op: Operation, random: Draw): FuzzRequest {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name) => {
    const real = realId(target, op.path, name);
    return real && random.chance(0.6) ? encodeURIComponent(real) : random.pick(BAD_IDS);
  });
  const query: string[] = [];
  if (random.chance(0.5)) {
    for (const name of op.query)
      if (random.chance(0.6)) query.push(`${name}=${random.pick(BAD_QUERY_VALUES)}`);
    if (random.chance(0.3)) query.push(`unknown_param=${random.pick(BAD_QUERY_VALUES)}`);
    if (op.query.length > 0 && random.chance(0.2)) query.push(`${op.query[0]}=1&${op.query[0]}=2`);
  }
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  const request: FuzzRequest = {
    method: op.method.toUpperCase(),
    url: query.length ? `${url}?${query.join('&')}` : url,
    headers,
  };
  const takesBody = op.media.length > 0;
  if (!takesBody && !random.chance(0.15)) return request;
  if (op.media.includes('multipart/form-data') && random.chance(0.5)) {
    const field = '--b\r\nContent-Disposition: form-data; name="userInput"\r\n\r\nhello';
    const [contentType, payload] = random.pick([
      ['multipart/form-data', `${field}\r\n--b--\r\n`],
      ['multipart/form-data; boundary=', `${field}\r\n--b--\r\n`],
      ['multipart/form-data; boundary=b', field],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab',
      ],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="zz"\r\n\r\n\u0000\r\n--b--\r\n',
      ],
      [`multipart/form-data; boundary=${'b'.repeat(300)}`, `--${'b'.repeat(300)}\r\n\r\n`],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="duration"\r\n\r\n1e999\r\n--b--\r\n',
      ],
    ] as const);
    return { ...request, headers: { ...headers, 'content-type': contentType }, payload };
  }
  const base = exampleBody(target, op);
  const fields = op.properties.length > 0 ? op.properties : ['name'];
  const kind = random.pick(['field', 'field', 'field', 'body', 'unknown', 'syntax', 'media'] as const);
  let payload: string;
  let contentType = 'application/json';
  if (kind === 'field')
    payload = withField(
      base,
      random.pick(fields),
      random.chance(0.7) ? random.pick(BAD_VALUES) : random.generatedValue(),
    );
  else if (kind === 'body') payload = random.pick(BAD_VALUES);
  else if (kind === 'unknown')
    payload = withField(base, random.pick(['zz_unknown', '\\ud800', 'a.b', '']), '1');
  else if (kind === 'syntax') payload = random.pick(BAD_BODIES);
  else {
    contentType = random.pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'image/png',
    ]);
    payload = 'a=1&b=%00';
  }
  return { ...request, headers: { ...headers, 'content-type': contentType }, payload };
}

/**
 * Each body field in turn nested 5,000 levels deep, the rest of the body as the example has it: the
 * random requests seldom put a deep value in the one field that is stored as given (`metrics`).
 */
function deepFieldRequests(target: Target, op: Operation): FuzzRequest[] {
  if (!op.media.includes('application/json')) return [];
  const base = exampleBody(target, op);
  const url = op.path.replace(/\{(\w+)\}/g, (_, name) =>
    encodeURIComponent(realId(target, op.path, name) ?? randomUUID()),
  );
  const headers = { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' };
  return op.properties.map((field) => ({
    method: op.method.toUpperCase(),
    url,
    headers,
    payload: withField(base, field, nestedObjects(5_000)),
  }));
}

function checkAnswer(
  target: Target,
  request: FuzzRequest,
  response: Awaited<ReturnType<AppInstance['inject']>>,
) {
  const context = () =>
    `seed ${SEED}, ${target.name}: ${request.method} ${request.url.slice(0, 300)} ` +
    `(${request.headers['content-type'] ?? 'no body'}: ${(request.payload ?? '').slice(0, 200)}) → ` +
    `${response.statusCode} ${response.body.slice(0, 500)}`;
  assert.ok(response.statusCode < 500, `a 5xx: ${context()}`);
  const requestId = response.headers['x-request-id'];
  assert.ok(typeof requestId === 'string' && requestId.length > 0, `no X-Request-Id: ${context()}`);
  if (response.statusCode < 400) return;
  let body: any;
  try {
    body = response.json();
  } catch {
    assert.fail(`an error that is not JSON: ${context()}`);
  }
  assert.equal(body.status, 'error', context());
  assert.equal(typeof body.error?.type, 'string', context());
  assert.equal(typeof body.error?.code, 'string', context());
  assert.equal(typeof body.error?.message, 'string', context());
  assert.ok('param' in body.error, context());
  assert.equal(body.request_id, requestId, context());
}

test('fuzz: every operation of both OpenAPI documents, bad input, no 5xx, the spec error shape', async () => {
  const t = await startMailbox({
    // Domain verification looks nothing up: the fuzz's traffic stays in the process.
    overrides: { dns: { txt: async () => [], mx: async () => [] } },
    env: {
      ...OWN_COUNTERS,
      RATE_LIMIT_PER_MINUTE: '1000000',
      WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
      ROOM_RATE_LIMIT_PER_MINUTE: '1000000',
      MAILBOX_RATE_LIMIT: '1000000',
    },
  });
  try {
    const workspace = await t.platform.signup();
    const documents = (file: string) =>
      JSON.parse(readFileSync(new URL(`../../../openapi/${file}`, import.meta.url), 'utf8'));
    const targets: Target[] = [
      {
        name: 'platform',
        app: t.platform.app,
        token: workspace.token,
        operations: operationsOf(documents('platform-v1.json'), ''),
        ids: new Map(),
      },
      {
        name: 'mailbox',
        app: t.app,
        // A platform key of the fuzz's own workspace: the mailbox namespace it writes (lists,
        // webhooks, domains) is its own, so on a shared PostgreSQL no other test's mail is touched.
        token: (await t.platform.createApiKey(workspace)).secret,
        operations: operationsOf(documents('mailbox-v0.json'), '/v0'),
        ids: new Map(),
      },
    ];
    let operations = 0;
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const target of targets) {
      await seed(target);
      if (process.env.FUZZ_DEBUG) console.log(target.name, [...target.ids.keys()].join(' '));
      // Deletions last, so the other operations still find the seeded resources (and the session).
      const ordered = [...target.operations].sort(
        (a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'),
      );
      for (const op of ordered) {
        operations += 1;
        const send = async (request: FuzzRequest) => {
          const response = await target.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: request.headers,
            ...(request.payload === undefined ? {} : { payload: request.payload }),
          });
          requests += 1;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          checkAnswer(target, request, response);
        };
        for (const request of deepFieldRequests(target, op)) await send(request);
        // One seed per operation, so a failure replays on its own; no shrinking (the request is
        // printed whole, and every re-run would be one more write).
        await fc.assert(
          fc.asyncProperty(fc.gen(), (g) => send(badRequest(target, op, drawFrom(g)))),
          { seed: SEED + operations, numRuns: RUNS, endOnFailure: true },
        );
      }
    }
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    console.log(
      `fuzz: seed ${SEED}, ${operations} operations, ${requests} requests, no 5xx (${byStatus.join(', ')})`,
    );
    assert.ok(operations > 100);
  } finally {
    await t.close();
  }
});
