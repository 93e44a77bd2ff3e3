// Validates a webhook body against the payload schema its OpenAPI document publishes, the way an
// integrator generating types from the document would read it: every documented required field
// present, and (stricter than the document) no field the document does not name.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type JsonSchema = Record<string, unknown>;

/** Objects without an `additionalProperties` of their own refuse undocumented fields. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = closeObjects(value);
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

/** The errors of `body` against the payload of `event` in `document`'s `webhooks` (empty when it fits). */
export function webhookPayloadErrors(document: any, event: string, body: unknown): string[] {
  const payload = document.webhooks?.[event]?.post?.requestBody?.content?.['application/json']?.schema;
  if (!payload) throw new Error(`the document has no webhook ${event}`);
  // The components become the schema's $defs, so the document's own references resolve.
  const asDefs = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const schema = {
    ...(asDefs(payload) as JsonSchema),
    $defs: closeObjects(asDefs(document.components.schemas)),
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
  );
}
