import type { RouteOptions } from 'fastify';
import type { AnyFastify } from './any-fastify.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Leaves this route's query string open to unknown parameters (see closeQueryStrings). */
    openQuery?: boolean;
  }
}

type ObjectSchema = { type?: unknown; properties?: unknown; additionalProperties?: unknown; $id?: unknown };

/** A route without query parameters still refuses them: `?foo=1` is a 400 naming `foo`. */
const NO_QUERY: ObjectSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Closes the query string of every route whose path `appliesTo` selects, as it registers, so an
 * unknown or misspelt query parameter is a 400 naming it (`parameter_invalid`, "Received unknown
 * parameter: …", as for unknown body fields) instead of being silently ignored. Done here rather
 * than in each feature's schemas so a new route cannot forget it:
 * - a route without a querystring schema gets an empty closed one;
 * - an open object schema is replaced by a closed copy without its `$id` (so no two schemas
 *   claim one id), made once per schema object;
 * - anything else (a `$ref`, a union) stops the app from starting: it cannot be closed here.
 * OPTIONS routes are left open: a CORS preflight repeats the query of the request it precedes.
 * A route whose query another party composes (an OIDC callback: providers add parameters of their
 * own) opts out with `config: { openQuery: true }` and must validate what it reads itself.
 */
export function closeQueryStrings(app: AnyFastify, appliesTo: (url: string) => boolean): void {
  const closed = new WeakMap<object, ObjectSchema>();
  const closedCopyOf = (schema: ObjectSchema): ObjectSchema => {
    let copy = closed.get(schema);
    if (!copy) {
      const { $id: _id, ...rest } = schema;
      copy = { ...rest, additionalProperties: false };
      closed.set(schema, copy);
    }
    return copy;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!appliesTo(route.url) || methods.every((method) => method === 'OPTIONS')) return;
    if (route.config?.openQuery === true) return;
    route.schema ??= {};
    const query = route.schema.querystring as ObjectSchema | undefined;
    if (!query) route.schema.querystring = NO_QUERY;
    else if (query.additionalProperties === false) return;
    else if (query.type === 'object' && typeof query.properties === 'object') {
      route.schema.querystring = closedCopyOf(query);
    } else {
      throw new Error(
        `${methods.join(',')} ${route.url}: its querystring schema must be an object schema (it is closed to unknown parameters).`,
      );
    }
  });
}
