import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema } from 'fastify';
import type { AnyFastify } from './any-fastify.ts';
import { AppError } from './errors.ts';

const common: Options = { removeAdditional: false, useDefaults: true, allErrors: true, strict: false };

function compiler(options: Options) {
  const ajv = new Ajv({ ...common, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text, so they are coerced ("25" → 25); JSON bodies
 * are validated as sent, so `{ "name": 42 }` is an error rather than silently becoming "42".
 */
export function createValidatorCompiler() {
  const strict = compiler({ coerceTypes: false });
  const coercing = compiler({ coerceTypes: 'array' });
  return ({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(withoutIds(schema));
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

/**
 * Where the first NUL character sits in a parsed value, as an integrator writes it (`goals[0].name`).
 * Walked with an explicit stack: JSON nested a hundred thousand levels deep fits in the body limit,
 * and recursion would overflow the call stack on it (a 500 instead of the schema's 400).
 */
function nulPath(root: unknown, rootPath: string): string | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || 'body';
      continue;
    }
    // Only what JSON and query parsing produce: streams, buffers and files are not walked.
    if (value === null || typeof value !== 'object') continue;
    const children: Array<[unknown, string]> = [];
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) children.push([item, `${path}[${index}]`]);
    } else {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) continue;
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        children.push([item, at]);
      }
    }
    // Reversed onto the stack, so the first NUL in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return null;
}

/** Path and query parsers make objects of their own prototypes that hold strings or arrays of them. */
function nulInNamed(part: unknown): string | null {
  if (!part || typeof part !== 'object') return null;
  for (const [name, value] of Object.entries(part)) {
    if (name.includes('\u0000')) return name;
    const found = nulPath(value, name);
    if (found !== null) return found;
  }
  return null;
}

/**
 * PostgreSQL text and jsonb cannot hold NUL characters, so a `\u0000` in a JSON string would
 * otherwise surface as a database error (a 500). Refused up front instead, naming the parameter.
 */
export function refuseNulCharacters(app: AnyFastify): void {
  app.addHook('preValidation', refuseNul);
}

/**
 * The check itself, as a `preValidation` hook. Routes whose body a plugin fills later (multipart
 * form fields) run it again as their own hook, which comes after the plugin's.
 */
export async function refuseNul(request: { params: unknown; query: unknown; body: unknown }): Promise<void> {
  const param = nulInNamed(request.params) ?? nulInNamed(request.query) ?? nulPath(request.body, '');
  if (param !== null) {
    throw new AppError('parameter_invalid', `Invalid ${param}: text must not contain NUL characters.`, {
      param,
    });
  }
}

/** A missing body counts as `{}` on routes whose body is entirely optional (a `preValidation` hook). */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
