// Every scope an API key can be restricted to, read from the routes as they register: the scopes
// the authentication hook will ask of a scoped key (auth.ts, routeScopes). A key created with a
// scope outside this list would do nothing, so creating one is refused (api-secrets), and the
// dashboard offers exactly these.
import type { AnyFastify } from './any-fastify.ts';
import { routeScopes } from './auth.ts';

export interface ScopeEntry {
  /** `<resource>:read` or `<resource>:write`. */
  scope: string;
  /** How many operations ask for it. */
  operations: number;
}

export class ScopeCatalog {
  readonly #operations = new Map<string, number>();

  /** `extra`: scopes another service honours (the mailbox service reads a platform key's `mailbox:read` and `mailbox:write`). */
  constructor(extra: Record<string, number> = {}) {
    for (const [scope, operations] of Object.entries(extra)) this.#operations.set(scope, operations);
  }

  /**
   * Records the scopes of the routes registered on `app` after this call: call it on the plugin
   * that authenticates (public routes, such as sign-in, ask no scope). `prefix` with its trailing
   * slash, e.g. `/v1/`.
   */
  collect(app: AnyFastify, prefix: string): void {
    app.addHook('onRoute', (route) => {
      // Routes only a signed-in user may call are out of any key's reach: their scope means nothing.
      if (route.config?.userTokenOnly || route.schema?.hide) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        for (const scope of routeScopes(route.url, method, prefix, route.config?.scopes)) {
          this.#operations.set(scope, (this.#operations.get(scope) ?? 0) + 1);
        }
      }
    });
  }

  has(scope: string): boolean {
    return this.#operations.has(scope);
  }

  entries(): ScopeEntry[] {
    return [...this.#operations]
      .map(([scope, operations]) => ({ scope, operations }))
      .sort((a, b) => a.scope.localeCompare(b.scope));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The scopes of this app's API (platform-app.ts); absent in apps without API keys. */
    scopeCatalog?: ScopeCatalog;
  }
}
