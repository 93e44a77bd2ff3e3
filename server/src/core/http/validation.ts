import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema } from 'fastify';
import { lazyValidator } from './lazy-compile.ts';

const common: Options = { removeAdditional: false, useDefaults: true, allErrors: true, strict: false };

/** An Ajv with the service's options and formats; `options` adds to them (e.g. coercion). */
export function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text, so they are coerced ("25" → 25); JSON bodies
 * are validated as sent, so `{ "name": 42 }` is an error rather than silently becoming "42".
 */
export function createValidatorCompiler() {
  let strict: Ajv | undefined;
  let coercing: Ajv | undefined;
  // The two Ajv instances themselves are made on the first compilation too.
  const ajvFor = (httpPart?: string) => {
    if (httpPart === 'body') {
      strict ??= createAjv({ coerceTypes: false });
      return strict;
    }
    coercing ??= createAjv({ coerceTypes: 'array' });
    return coercing;
  };
  // Compiled on the route's first request (lazy-compile.ts), not at ready().
  return ({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    lazyValidator(() => ajvFor(httpPart).compile(withoutIds(schema)));
}

/**
 * A route schema's `$id`s only name its parts in the OpenAPI document (app/openapi-components.ts).
 * Ajv would take each for a schema resource of its own, and refuse a body that holds the same named
 * part twice, or two routes whose bodies are copies of one named schema: it gets them without.
 */
function withoutIds(node: unknown): object {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (typeof node !== 'object' || node === null) return node as object;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$id') copy[key] = withoutIds(value);
  }
  return copy;
}
