import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** Largest accepted `parameters_schema`, as serialised JSON. */
export const MAX_SCHEMA_CHARS = 32_768;

const OPTIONS: Options = {
  // Vendor keywords (`x-…`, OpenAI's `strict`) and unknown formats are tolerated; the schema itself
  // must still be valid against its meta-schema, which `validateSchema` enforces on compile.
  strict: false,
  validateSchema: true,
  validateFormats: false,
  allErrors: true,
  logger: false,
};

const DIALECTS: Array<{ match: RegExp; create: () => Ajv }> = [
  { match: /json-schema\.org\/draft-07\/schema/, create: () => new Ajv(OPTIONS) },
  { match: /json-schema\.org\/draft\/2019-09\/schema/, create: () => new Ajv2019(OPTIONS) },
  { match: /json-schema\.org\/draft\/2020-12\/schema/, create: () => new Ajv2020(OPTIONS) },
];

/**
 * Why `schema` is not usable as the JSON Schema of a function's arguments, or null when it is.
 * Draft-07 is assumed unless `$schema` names 2019-09 or 2020-12; the top level must describe an
 * object (`type: "object"`), as tool-calling models expect. Remote `$ref`s are not fetched, so
 * they fail to resolve.
 */
export function parametersSchemaProblem(schema: Record<string, unknown>): string | null {
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) {
    return `parameters_schema must be at most ${MAX_SCHEMA_CHARS} characters of JSON.`;
  }
  if (schema.type !== 'object') return 'parameters_schema must have "type": "object" at the top level.';
  const declared = schema.$schema;
  let ajv: Ajv;
  if (declared === undefined) {
    ajv = new Ajv(OPTIONS);
  } else {
    const dialect = typeof declared === 'string' ? DIALECTS.find((d) => d.match.test(declared)) : undefined;
    if (!dialect) {
      return 'parameters_schema $schema must be JSON Schema draft-07, 2019-09 or 2020-12 (or be omitted).';
    }
    ajv = dialect.create();
  }
  try {
    ajv.compile(schema);
    return null;
  } catch (error) {
    return `parameters_schema is not a valid JSON Schema: ${(error as Error).message}`;
  }
}
