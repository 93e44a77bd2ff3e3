// The shared security checks on every /v0 route of the mailbox, read from its route tree
// (docs/mailbox.md, "Keys"): a revoked key answers 401, a platform key scoped to the other half of
// `mailbox:read` / `mailbox:write` answers 403 `insufficient_scope`, and another workspace's inbox
// answers 404 `not_found` on the routes below /inboxes/{inbox_id}.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { isWrite } from '../../src/core/http/rate-limit.ts';
import { appRoutes } from '../security.ts';
import { type Principals, startWithPrincipals } from './principals.ts';

let p: Principals;
let routes: string[];
before(async () => {
  p = await startWithPrincipals();
  // The API description is public.
  routes = appRoutes(p.t as never, '/v0').filter((route) => route !== 'GET /openapi.json');
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
  test('a revoked key answers 401 on every route', async () => {
    assert.ok(routes.length > 40);
    for (const route of routes) {
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const response = await p.t.request(method, url, p.keys.revoked!);
      assert.equal(response.status, 401, `${route}: ${JSON.stringify(response.body)}`);
    }
  });

  test('a platform key scoped to the other half of mailbox:read/write answers 403 on every route', async () => {
    const workspace = await p.t.platform.signup();
    const readOnly = (await p.t.platform.createApiKey(workspace, { name: 'r', scopes: ['mailbox:read'] }))
      .secret;
    const writeOnly = (await p.t.platform.createApiKey(workspace, { name: 'w', scopes: ['mailbox:write'] }))
      .secret;
    for (const route of routes) {
      const { method, url } = urlOf(route, p.mine.inbox_id);
      const response = await p.t.request(method, url, isWrite(method) ? readOnly : writeOnly);
      assert.equal(response.status, 403, `${route}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error.code, 'insufficient_scope', route);
    }
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
