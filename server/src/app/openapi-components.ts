import { isDeepStrictEqual } from 'node:util';
import type { FastifySchema } from 'fastify';
import { bodyIsOptional } from '../core/http/request-body.ts';
import type { WebhookDoc } from '../core/http/webhook-doc.ts';

/**
 * Named component schemas for the OpenAPI documents, so that generated SDK types get the names an
 * integrator reads in the docs (`Scenario`, `ScenarioList`, `Error`) instead of accidental ones.
 *
 * A TypeBox schema is named by its `$id`. @fastify/swagger keeps a root `$id` inline and names the
 * nested ones `def-N`, so the route schemas reach it with each `$id` turned into a marker it
 * leaves alone (`documentedSchema`, the swagger `transform`), and the finished document has every
 * marked schema moved to `components.schemas` and referenced (`hoistNamedSchemas`, the swagger
 * `transformObject`). A request or response body without a name of its own is named after its
 * operation (`createScenario` → `CreateScenarioRequest`, `getUsage` → `GetUsageResponse`).
 *
 * Validation and serialization get each route schema without its `$id`s (`withoutNames`, an
 * `onRoute` hook): Ajv, inside fast-json-stringify too, would take each `$id` for a schema resource
 * of its own, and refuse a schema that holds the same named part twice (a list and its page).
 */

const MARKER = 'x-component-name';
const SCHEMAS = '#/components/schemas/';
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * Where a copy keeps the `$id` it was made without: a symbol key, which Ajv, fast-json-stringify
 * and JSON never read. Plugins change the copy the route runs with (@fastify/websocket hides its
 * sockets, the mailbox adds each route's scope to `security`), so the document is built from it.
 */
const NAME = Symbol('schema name');

/** A copy of a route schema without `$id`s, for the route to run with (an `onRoute` hook). */
export function withoutNames<T extends object>(schema: T): T {
  return dropIds(schema) as T;
}

function dropIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropIds);
  if (!isObject(node) || Object.getPrototypeOf(node) !== Object.prototype) return node;
  const copy: Json & { [NAME]?: string } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' && typeof value === 'string') copy[NAME] = value;
    else if (key !== '$id') copy[key] = dropIds(value);
  }
  return copy;
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A body the handler streams itself (raw bytes of one of `mediaTypes`): documented as the
     * operation's `requestBody`, never a `body` schema, which would have Fastify validate the stream.
     */
    streamedBody?: { mediaTypes: readonly string[]; description: string };
  }
}

/** What the document is built from (the swagger `transform`): the route schema, names marked. */
export function documentedSchema<T extends object>(schema: T): T {
  return markNamedSchemas(withStreamedBody(schema));
}

/** `streamedBody` as swagger documents a body: bytes (`format: binary`), one entry per media type. */
function withStreamedBody<T extends object>(schema: T): T {
  const { streamedBody, ...rest } = schema as T & FastifySchema;
  if (!streamedBody) return schema;
  return {
    ...rest,
    body: { type: 'string', format: 'binary', description: streamedBody.description },
    consumes: streamedBody.mediaTypes,
  } as T;
}

/** A copy of a schema where each named part (`$id`, or the name its copy kept) carries the marker. */
function markNamedSchemas<T>(node: T): T {
  if (Array.isArray(node)) return node.map(markNamedSchemas) as T;
  if (!isObject(node) || Object.getPrototypeOf(node) !== Object.prototype) return node;
  const copy: Json = {};
  const kept = (node as { [NAME]?: string })[NAME];
  if (kept) copy[MARKER] = kept;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' && typeof value === 'string') copy[MARKER] = value;
    else copy[key] = markNamedSchemas(value);
  }
  return copy as T;
}

const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);

/** Body schemas without a name of their own take their operation's. */
function nameOperationBodies(operationId: string, operation: Json): void {
  const requestContent = (operation.requestBody as Json | undefined)?.content as
    | Record<string, Json>
    | undefined;
  for (const media of Object.values(requestContent ?? {})) {
    if (isObject(media.schema) && !(MARKER in media.schema))
      media.schema[MARKER] = `${pascal(operationId)}Request`;
  }
  const responses = Object.entries((operation.responses ?? {}) as Record<string, Json>).filter(
    ([status, response]) => status.startsWith('2') && isObject(response.content),
  );
  for (const [status, response] of responses) {
    for (const media of Object.values(response.content as Record<string, Json>)) {
      if (!isObject(media.schema) || MARKER in media.schema) continue;
      const suffix = responses.length > 1 ? `${status}Response` : 'Response';
      media.schema[MARKER] = `${pascal(operationId)}${suffix}`;
    }
  }
}

/**
 * @fastify/swagger marks every request body required; the server takes no body as `{}` where the
 * body's schema requires no field (request-body.ts), and the document says so.
 */
function markOptionalBody(operation: Json): void {
  const requestBody = operation.requestBody as Json | undefined;
  const media = Object.values((requestBody?.content ?? {}) as Record<string, Json>);
  if (requestBody && media.length > 0 && media.every((entry) => bodyIsOptional(entry.schema))) {
    requestBody.required = false;
  }
}

/**
 * @fastify/swagger moves a body schema's single example to the media object; the hoisted
 * component gets it back, so that it equals the same schema found nested elsewhere.
 */
function restoreExamples(media: Json): void {
  const schema = media.schema;
  if (!isObject(schema) || !(MARKER in schema) || 'examples' in schema) return;
  if ('example' in media) schema.examples = [media.example];
  else if (isObject(media.examples))
    schema.examples = Object.values(media.examples).map((e) => (e as Json).value);
}

/** Moves every marked schema to `components.schemas`, leaving a `$ref` where it was. */
export function hoistNamedSchemas<T extends Json>(document: T): T {
  const named: Record<string, unknown> = {};
  const register = (name: string, schema: unknown) => {
    if (name in named && !isDeepStrictEqual(named[name], schema)) {
      throw new Error(`Two different schemas are both named ${name}: give one of them another $id`);
    }
    named[name] = schema;
  };
  // `names` is set when `node` maps names to schemas (properties), whose keys are not keywords.
  const hoist = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => hoist(item));
    if (!isObject(node)) return node;
    if ('schema' in node && !names) restoreExamples(node);
    const copy: Json = {};
    for (const [key, value] of Object.entries(node)) {
      // Examples and defaults are data, not schemas.
      copy[key] = !names && DATA_KEYWORDS.has(key) ? value : hoist(value, !names && key === 'properties');
    }
    const name = copy[MARKER];
    if (typeof name !== 'string') return copy;
    delete copy[MARKER];
    register(name, copy);
    return { $ref: `${SCHEMAS}${name}` };
  };

  for (const pathItem of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(pathItem)) {
      if (isObject(operation) && typeof operation.operationId === 'string') {
        nameOperationBodies(operation.operationId, operation);
        markOptionalBody(operation);
      }
    }
  }
  const hoisted = hoist(document) as T;
  const components = hoisted.components as Json;
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Json)) register(name, schema);
  components.schemas = Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
  if (hoisted.paths) (hoisted as Json).tags = declaredTags(hoisted);
  return hoisted;
}

/** Every tag an operation or webhook uses, declared at the top (what the linter asks for). */
function declaredTags(document: Json): Array<{ name: string }> {
  const names = new Set<string>();
  for (const group of [document.paths, document.webhooks] as Array<Record<string, Json> | undefined>) {
    for (const item of Object.values(group ?? {})) {
      for (const operation of Object.values(item)) {
        for (const tag of ((operation as Json).tags ?? []) as string[]) names.add(tag);
      }
    }
  }
  return [...names].sort().map((name) => ({ name }));
}

const camel = (event: string) =>
  event.replace(/[._]([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The `webhooks` section (OpenAPI 3.1): one POST per event with its signed headers, and the
 * payload schemas as components (swagger converts them like the route schemas).
 */
export function webhookDocuments(events: WebhookDoc[]): {
  webhooks: Record<string, never>;
  schemas: Record<string, never>;
} {
  const webhooks: Json = {};
  const schemas: Json = {};
  for (const { event, summary, payload, headers, deprecated } of events) {
    const { $id: name, ...schema } = payload as unknown as { $id?: string } & Json;
    if (!name) throw new Error(`The payload of ${event} needs an $id to be named`);
    schemas[name] = markNamedSchemas(schema);
    webhooks[event] = {
      post: {
        operationId: `${camel(event)}Webhook`,
        tags: ['Webhooks'],
        summary,
        ...(deprecated ? { deprecated } : {}),
        parameters: Object.entries(headers).map(([header, { description, example }]) => ({
          in: 'header',
          name: header,
          required: true,
          description,
          schema: { type: 'string', ...(example ? { examples: [example] } : {}) },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `${SCHEMAS}${name}` } } },
        },
        responses: { '2XX': { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
      },
    };
  }
  return { webhooks, schemas } as { webhooks: Record<string, never>; schemas: Record<string, never> };
}
