// The shared security checks on every /v0 route of the mailbox, read from its route tree
// (docs/mailbox.md, "Authentication" and "Scopes"): every route declares one scope of the closed
// set; a revoked key answers 401; a key without the route's scope answers 403 `insufficient_scope`
// naming it (scoped keys by scope name, platform keys by `mailbox:read` / `mailbox:write`); an
// unknown query parameter answers 400 naming it; another workspace's inbox answers 404 on the
// routes below /inboxes/{inbox_id}.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { grantsOf, type MailboxScope, SCOPE_NAMES } from '../../src/mailbox/auth/scopes.ts';
import { enforceRouteRules } from '../../src/mailbox/route-rules.ts';
import { appRoutes, normalise } from '../security.ts';
import { type Principals, startWithPrincipals } from './principals.ts';

let p: Principals;
let routes: string[];
/** Every route's declared scope, as the OpenAPI document publishes it (WebSockets are not in it). */
const scopeOf = new Map<string, MailboxScope>();
const SOCKETS = ['GET /ws', 'GET /inboxes/{}/ws'];

before(async () => {
  p = await startWithPrincipals();
  // The API description is public.
  routes = appRoutes(p.t as never, '/v0').filter((route) => route !== 'GET /openapi.json');
  const document = p.t.app.swagger() as {
    paths: Record<string, Record<string, { security?: Array<{ bearer?: string[] }> }>>;
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const scopes = operation.security?.[0]?.bearer ?? [];
      assert.equal(scopes.length, 1, `${method} ${path} names one scope`);
      scopeOf.set(normalise(`${method.toUpperCase()} ${path}`), scopes[0] as MailboxScope);
    }
  }
  for (const socket of SOCKETS) scopeOf.set(socket, 'messages.read');
});
after(() => p.t.close());

/** The route with the given inbox in its first placeholder below /inboxes and unknown ids elsewhere. */
function urlOf(route: string, inboxId: string): { method: string; url: string } {
  const [method, path] = route.split(' ') as [string, string];
  let first = true;
  const filled = path.replace(/\{\}/g, () => {
    const id = first && path.startsWith('/inboxes/') ? inboxId : randomUUID();
    first = false;
    return id;
  });
  return { method, url: `/v0${filled}` };
}

describe('security of the mailbox', () => {
  test('every /v0 route declares one scope of the set; WebSockets need messages.read', () => {
    assert.ok(routes.length > 40);
    for (const route of routes) {
      const scope = scopeOf.get(route);
      assert.ok(scope && SCOPE_NAMES.includes(scope), `${route} declares a scope`);
    }
    assert.deepEqual(
      routes.filter((route) => !scopeOf.has(route) || SOCKETS.includes(route)).sort(),
      [...SOCKETS].sort(),
      'only the WebSocket routes are missing from the OpenAPI document',
    );
  });

  test('a route that declares no scope, or leaves its query open, stops the app from starting', async () => {
    const register = async (options: object) => {
      const app = Fastify();
      await app.register(async (v0) => {
        enforceRouteRules(v0);
        v0.get('/x', options, async () => ({}));
      });
      try {
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await assert.rejects(register({}), /GET \/x must declare config\.scope/);
    await assert.rejects(register({ config: { scope: 'mail.read' } }), /must declare config\.scope/);
    await assert.rejects(
      register({ config: { scope: 'inboxes.read' }, schema: { querystring: { type: 'object' } } }),
      /additionalProperties: false/,
    );
    await register({ config: { scope: 'inboxes.read' } });
  });

  test('a revoked key answers 401 on every route', async () => {
    for (const route of routes) {
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const response = await p.t.request(method, url, p.keys.revoked!);
      assert.equal(response.status, 401, `${route}: ${JSON.stringify(response.body)}`);
    }
  });

  test('a scoped key without the route’s scope answers 403 naming it; one with only that scope passes', async () => {
    const without = new Map<MailboxScope, string>();
    const only = new Map<MailboxScope, string>();
    for (const scope of SCOPE_NAMES) {
      // Every other scope, leaving out those that imply this one (x.write grants x.read).
      const others = SCOPE_NAMES.filter((name) => !grantsOf([name]).grants.has(scope));
      without.set(scope, (await p.t.createScopedKey({ name: `all but ${scope}`, scopes: others })).api_key);
      only.set(scope, (await p.t.createScopedKey({ name: `only ${scope}`, scopes: [scope] })).api_key);
    }
    for (const route of routes) {
      const scope = scopeOf.get(route)!;
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const refused = await p.t.request(method, url, without.get(scope)!);
      assert.equal(refused.status, 403, `${route}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error.code, 'insufficient_scope', route);
      assert.equal(refused.body.error.param, scope, route);
      assert.match(refused.body.error.message, new RegExp(`lacks the ${scope.replace('.', '\\.')} scope`));
      const passed = await p.t.request(method, url, only.get(scope)!);
      // A forward sends the original's content, so it also needs messages.read, checked after the
      // route's own scope: the route's scope alone gets past the route and no further.
      const alsoNeeded = route.includes('/forward') ? 'messages.read' : undefined;
      if (passed.body?.error?.code === 'insufficient_scope' || alsoNeeded) {
        assert.equal(passed.body?.error?.param, alsoNeeded, `${route} with ${scope}`);
      }
    }
  });

  test('a platform key scoped to the other half of mailbox:read/write answers 403 on every route', async () => {
    const workspace = await p.t.platform.signup();
    const keyWith = async (scope: string) =>
      (await p.t.platform.createApiKey(workspace, { name: scope, scopes: [scope] })).secret;
    const readOnly = await keyWith('mailbox:read');
    const writeOnly = await keyWith('mailbox:write');
    for (const route of routes) {
      const reads = scopeOf.get(route)!.endsWith('.read');
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const response = await p.t.request(method, url, reads ? writeOnly : readOnly);
      assert.equal(response.status, 403, `${route}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error.code, 'insufficient_scope', route);
      assert.equal(response.body.error.param, reads ? 'mailbox:read' : 'mailbox:write', route);
    }
  });

  // Fastify validates the body before the query string, so routes with a body are tried with a
  // valid one; every route's query string is closed (the registration rule above).
  test('an unknown query parameter answers 400 naming it, on every route without a body and with one', async () => {
    const bodiless = routes.filter((route) => /^(GET|DELETE) /.test(route));
    const withBody: Array<[string, string, unknown]> = [
      ['POST', '/v0/inboxes', { username: p.t.unique() }],
      ['PATCH', `/v0/inboxes/${p.mine.inbox_id}`, { display_name: 'x' }],
      ['POST', `/v0/inboxes/${p.mine.inbox_id}/messages/send`, { to: 'a@example.com', text: 'x' }],
      ['PATCH', `/v0/webhooks/${randomUUID()}`, { enabled: false }],
    ];
    const tries = [
      ...bodiless.map((route) => ({
        route,
        ...urlOf(route, p.mine.inbox_id),
        payload: undefined as unknown,
      })),
      ...withBody.map(([method, url, payload]) => ({ route: `${method} ${url}`, method, url, payload })),
    ];
    for (const { route, method, url, payload } of tries) {
      const response = await p.t.request(method, `${url}?colour=blue`, p.keys.admin!, payload);
      assert.equal(response.status, 400, `${route}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error.param, 'colour', route);
      assert.match(response.body.error.message, /unknown parameter: colour/, route);
    }
    // The known ones still pass.
    const listed = await p.t.request('GET', '/v0/inboxes?limit=5', p.keys.admin!);
    assert.equal(listed.status, 200);
  });

  // Routes with a body validate it first (400), so the bodiless ones are checked here; the writes
  // are covered with real bodies in access.test.ts.
  test("another workspace's inbox answers 404 on every GET and DELETE below it", async () => {
    const below = routes.filter(
      (route) => route.split(' ')[1]!.startsWith('/inboxes/{}') && /^(GET|DELETE) /.test(route),
    );
    assert.ok(below.length > 10);
    for (const route of below) {
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const response = await p.t.request(method, url, p.keys.stranger!);
      assert.equal(response.status, 404, `${route}: ${JSON.stringify(response.body)}`);
    }
  });
});
