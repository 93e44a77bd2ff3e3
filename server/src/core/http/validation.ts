import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema } from 'fastify';

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
    (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
