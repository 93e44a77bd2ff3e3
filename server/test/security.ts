// The shared security runner: every resource's test hands it a fixture, and it checks every route
// the fixture lists (which the coverage test holds equal to the app's /v1 routes):
//   (a) another workspace's ids, in the path or in a body or query, answer 404;
//   (b) a revoked API key answers 401;
//   (c) a key without the route's scope answers 403 `insufficient_scope`, and one with exactly the
//       route's scopes gets past the check;
//   (d) a member whose role does not allow the route (a viewer's, coach's or author's write beyond
//       their role, docs/teams.md) answers 403 `insufficient_role`, and one whose role does gets past.
// docs/api-conventions.md: authentication, scopes and the 404 for another workspace's ids.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Role, roleGrants } from '../src/core/http/roles.ts';
import { type ApiClient, bearer, startPlatform, type TestPlatform } from './harness.ts';

/** Ids a fixture creates in one workspace, by the name the routes' placeholders use. */
export type Ids = Record<string, string>;

export interface RouteCheck {
  /** A body valid for the route, so the request reaches the handler (validation answers 400 first). */
  body?: (ids: Ids) => unknown;
  /** A query string (without `?`). */
  query?: (ids: Ids) => string;
  /** Ids the body or query refers to: each is also tried alone from the other workspace. */
  refs?: string[];
  /**
   * What another workspace's id in `refs` answers when not 404, with the documented reason: ids in
   * bodies answer `400 parameter_invalid` naming the field on the authoring routes (docs/authoring.md).
   */
  refsAnswer?: { status: 400 | 200; because: string };
  /** Which id fills a path placeholder, when not the id of the same name. */
  params?: Record<string, string>;
  /** The scopes the route needs, when not the derived `<resource>:read|write`. */
  scopes?: string[];
  /**
   * Why the route has no workspace-owned id to try from another workspace (a shared catalog, a
   * list of one's own): the 404 check is skipped. Routes with ids in the path or `refs` need none.
   */
  noForeignIds?: string;
}

export interface SecurityFixture {
  resource: string;
  /** Every route of the resource, as `METHOD /path` with OpenAPI placeholders and without `/v1`. */
  routes: Record<string, RouteCheck>;
  /** Creates the resource's objects in a workspace (through the API where it can). */
  setup(ws: ApiClient, t: TestPlatform): Promise<Ids>;
  /** The platform to run on (default: `startPlatform()`). */
  start?: () => Promise<TestPlatform>;
  /**
   * The routes accept user tokens only (docs/api-conventions.md: "/v1/api-secrets accepts user
   * tokens only: an API key there gets 403 user_token_required"), so calls use the user token and
   * any API key, scoped or not, is refused with 403.
   */
  userTokenOnly?: boolean;
}

/** `{name}`, or the `*` of a wildcard route (filled by the id named `*`, see `params`). */
const PLACEHOLDER = /\{(\w+)\}|(\*)/g;

export function placeholders(path: string): string[] {
  return [...path.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '*');
}

/** The scopes a route needs by the rule of docs/api-conventions.md. */
export function derivedScopes(method: string, path: string): string[] {
  const resource = path.split('/').find(Boolean)!.replaceAll('-', '_');
  return [`${resource}:${method === 'GET' ? 'read' : 'write'}`];
}

const flip = (scope: string) =>
  scope.endsWith(':read') ? scope.replace(/:read$/, ':write') : scope.replace(/:write$/, ':read');

function split(route: string): { method: string; path: string } {
  const [method, path] = route.split(' ');
  return { method: method!, path: path! };
}

function fill(path: string, check: RouteCheck, ids: Ids): string {
  return path.replace(PLACEHOLDER, (_, named: string | undefined) => {
    const name = named ?? '*';
    const value = ids[check.params?.[name] ?? name];
    if (value === undefined) throw new Error(`the fixture gives no id for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

function urlOf(path: string, check: RouteCheck, ids: Ids): string {
  const query = check.query?.(ids);
  return `/v1${fill(path, check, ids)}${query ? `?${query}` : ''}`;
}

export function checkRouteSecurity(fixture: SecurityFixture): void {
  describe(`security of ${fixture.resource}`, () => {
    let t: TestPlatform;
    let owner: ApiClient;
    let stranger: ApiClient;
    let ownerIds: Ids;
    let strangerIds: Ids;
    const credentialOf = (ws: ApiClient) => (fixture.userTokenOnly ? ws.token : ws.key);

    const send = (secret: string, method: string, url: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: bearer(secret),
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });

    before(async () => {
      t = await (fixture.start ?? (() => startPlatform()))();
      owner = await t.workspace();
      stranger = await t.workspace();
      ownerIds = await fixture.setup(owner, t);
      strangerIds = await fixture.setup(stranger, t);
    });
    after(() => t.close());

    test('every route of the fixture exists in the app', () => {
      const routes = new Set(appRoutes(t));
      for (const route of Object.keys(fixture.routes)) assert.ok(routes.has(normalise(route)), route);
    });

    test("another workspace's ids answer 404 on every route", async () => {
      for (const [route, check] of Object.entries(fixture.routes)) {
        const { method, path } = split(route);
        const names = [
          ...placeholders(path).map((name) => check.params?.[name] ?? name),
          ...(check.refs ?? []),
        ];
        assert.ok(names.length > 0 || check.noForeignIds, `${route}: no ids to try and no reason given`);
        if (check.noForeignIds) continue;
        for (const name of new Set(names)) {
          // The stranger's own ids everywhere but one, which is the owner's.
          const ids = { ...strangerIds, [name]: ownerIds[name]! };
          const url = urlOf(path, check, ids);
          const response = await send(credentialOf(stranger), method, url, check.body?.(ids));
          const inPath = placeholders(path).some(
            (placeholder) => (check.params?.[placeholder] ?? placeholder) === name,
          );
          const expected = inPath ? 404 : (check.refsAnswer?.status ?? 404);
          const code = { 404: 'resource_not_found', 400: 'parameter_invalid', 200: undefined }[expected];
          assert.equal(
            response.statusCode,
            expected,
            `${method} ${url} (the owner's ${name}): ${response.body}`,
          );
          if (code) assert.equal(response.json().error.code, code, `${method} ${url}`);
        }
      }
    });

    test('a revoked API key answers 401 on every route', async () => {
      const key = await t.createApiKey(owner, { name: 'revoked' });
      const revoke = await send(owner.token, 'POST', `/v1/api-secrets/${key.id}/revoke`);
      assert.equal(revoke.statusCode, 200, revoke.body);
      for (const [route, check] of Object.entries(fixture.routes)) {
        const { method, path } = split(route);
        const url = urlOf(path, check, ownerIds);
        const response = await send(key.secret, method, url, check.body?.(ownerIds));
        assert.equal(response.statusCode, 401, `${method} ${url}: ${response.body}`);
        assert.equal(response.json().error.code, 'invalid_api_key', `${method} ${url}`);
      }
    });

    test("a key without the route's scope answers 403 on every route", async () => {
      // Only scopes some operation asks for can be given to a key (GET /v1/api-secrets/scopes).
      const listed = await send(owner.token, 'GET', '/v1/api-secrets/scopes');
      const known = new Set((listed.json().data as Array<{ scope: string }>).map((entry) => entry.scope));
      const keys = new Map<string, string>();
      const keyWith = async (scopes: string[]) => {
        const name = [...scopes].sort().join(' ');
        if (!keys.has(name)) keys.set(name, (await t.createApiKey(owner, { name: 'scoped', scopes })).secret);
        return keys.get(name)!;
      };
      for (const [route, check] of Object.entries(fixture.routes)) {
        const { method, path } = split(route);
        const required = check.scopes ?? derivedScopes(method, path);
        const url = urlOf(path, check, ownerIds);
        for (const missing of required) {
          // Everything the route needs but `missing`, and the other half of `missing`'s resource. A
          // route for user tokens only refuses every key: its path's scope is no scope a key can hold.
          const scopes = fixture.userTokenOnly
            ? ['meetings:read']
            : [...required.filter((scope) => scope !== missing), flip(missing)].filter((scope) =>
                known.has(scope),
              );
          // A read-only resource has no other half: another resource's scope keeps the key restricted.
          if (scopes.length === 0) scopes.push([...known].find((scope) => !required.includes(scope))!);
          const response = await send(await keyWith(scopes), method, url, check.body?.(ownerIds));
          const code = fixture.userTokenOnly ? 'user_token_required' : 'insufficient_scope';
          assert.equal(response.statusCode, 403, `${method} ${url} without ${missing}: ${response.body}`);
          assert.equal(response.json().error.code, code, `${method} ${url} without ${missing}`);
        }
        if (fixture.userTokenOnly) continue;
        // Exactly the scopes it needs pass the check (unknown ids: nothing is changed).
        const unknown = Object.fromEntries(Object.keys(ownerIds).map((name) => [name, randomUUID()]));
        const passed = await send(await keyWith(required), method, urlOf(path, check, unknown));
        assert.ok(
          ![401, 403].includes(passed.statusCode),
          `${method} ${path} with ${required}: ${passed.body}`,
        );
      }
    });

    test('a member whose role does not allow the route answers 403 insufficient_role', async () => {
      const members = Object.fromEntries(
        await Promise.all(
          (['viewer', 'coach', 'author'] as const).map(
            async (role) => [role, await t.member(owner, role)] as const,
          ),
        ),
      );
      // Unknown ids: an allowed call reaches the handler and changes nothing.
      const unknown = Object.fromEntries(Object.keys(ownerIds).map((name) => [name, randomUUID()]));
      for (const [route, check] of Object.entries(fixture.routes)) {
        const { method, path } = split(route);
        const required = check.scopes ?? derivedScopes(method, path);
        for (const [role, member] of Object.entries(members)) {
          const allowed = required.every((scope) => roleGrants(role as Role, scope));
          const url = urlOf(path, check, allowed ? unknown : ownerIds);
          const response = await send(
            member.token,
            method,
            url,
            allowed ? undefined : check.body?.(ownerIds),
          );
          const refused = response.statusCode === 403 && response.json().error?.code === 'insufficient_role';
          assert.equal(
            refused,
            !allowed,
            `${method} ${url} as ${role}: ${response.statusCode} ${response.body}`,
          );
        }
      }
    });
  });
}

/**
 * Every route of the app under `prefix`, as `METHOD /path` without the prefix, read from Fastify's
 * own route tree (hidden routes included, which the OpenAPI document leaves out). Placeholders are
 * written `{}`: the tree merges the names of sibling parameters.
 */
export function appRoutes(
  t: TestPlatform | { app: { printRoutes(options: object): string } },
  prefix = '/v1',
) {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    // The tree prints a wildcard below its parent without the `/` they share.
    const segment = match[2]!;
    stack.push(segment === '*' && !stack.at(-1)?.endsWith('/') ? '/*' : segment);
    const path = stack.join('');
    if (!match[3] || !path.startsWith(`${prefix}/`)) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') routes.push(normalise(`${method} ${path.slice(prefix.length)}`));
    }
  }
  return routes;
}

/** `GET /a/{id}/b/:x|:y` → `GET /a/{}/b/{}`: routes compared by shape, whatever their names. */
export function normalise(route: string): string {
  return route.replace(/\{\w+\}|:\w+(\|:\w+)*/g, '{}');
}
