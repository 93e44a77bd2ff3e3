import { Type } from 'typebox';
import type { AnyFastify } from '../core/http/any-fastify.ts';
import { isMailboxScope, SCOPE_NAMES } from './auth/scopes.ts';

/** A route without query parameters still refuses them: `?foo=1` is a 400 naming `foo`. */
const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * Rules every /v0 route follows, checked as it registers so a new route cannot forget them (the
 * app does not start otherwise, and every test fails):
 * - it declares the scope a key needs, `config: { scope }`, one of the closed set; the OpenAPI
 *   document lists it as the operation's bearer scope (`security: [{ bearer: [scope] }]`);
 * - its query string is closed (`additionalProperties: false`), so an unknown or misspelt query
 *   parameter is a 400 naming it rather than silently ignored. Routes without a querystring
 *   schema get an empty closed one.
 */
export function enforceRouteRules(v0: AnyFastify): void {
  v0.addHook('onRoute', (route) => {
    const name = `${String(route.method)} ${route.url}`;
    const scope = (route.config as { scope?: unknown } | undefined)?.scope;
    if (!isMailboxScope(scope)) {
      throw new Error(`${name} must declare config.scope, one of: ${SCOPE_NAMES.join(', ')}.`);
    }
    route.schema ??= {};
    route.schema.security = [{ bearer: [scope] }];
    const query = route.schema.querystring as { additionalProperties?: unknown } | undefined;
    if (!query) route.schema.querystring = NoQuery;
    else if (query.additionalProperties !== false) {
      throw new Error(`${name}: its querystring schema must set additionalProperties: false.`);
    }
  });
}
