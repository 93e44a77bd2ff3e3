import type { AnyFastify } from '../http/any-fastify.ts';
import { AppError } from '../http/errors.ts';
import type { JsonSchema, McpTool, RestCall } from './tool.ts';

/** What a route declared: its schemas, exactly as the REST API validates and serialises them. */
interface RouteSchemas {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
}

/**
 * Every route's schemas, by `METHOD /url`, recorded as routes register. Tools take their input and
 * output schemas from here rather than from a copy, so a tool can never drift from its route.
 * Call it before the routes register (an `onRoute` hook sees only later routes).
 */
export class RouteCatalog {
  private readonly routes = new Map<string, RouteSchemas>();

  static collect(app: AnyFastify): RouteCatalog {
    const catalog = new RouteCatalog();
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods)
        catalog.routes.set(`${method} ${route.url}`, (route.schema ?? {}) as RouteSchemas);
    });
    return catalog;
  }

  schemas(route: string): RouteSchemas {
    const schemas = this.routes.get(route);
    if (!schemas) throw new Error(`MCP tool names an unknown route: ${route}`);
    return schemas;
  }
}

/** The query defaults of a list tool: it always answers one page (REST lists come whole without `limit`). */
export const ONE_PAGE = { limit: 25 };

export interface RouteToolSpec {
  name: string;
  title: string;
  description: string;
  /** `METHOD /v1/path/:param`, exactly as registered. */
  route: string;
  /** A write whose retry must not repeat it: adds `idempotency_key` (sent as `Idempotency-Key`). */
  idempotencyKey?: boolean;
  destructive?: boolean;
  /** Query defaults the tool always sends (e.g. `limit`, so a list always answers one page). */
  queryDefaults?: Record<string, unknown>;
}

const IDEMPOTENCY_KEY = {
  type: 'string',
  maxLength: 255,
  description:
    'Optional. A unique string per intended operation: a retry with the same key returns the first answer instead of acting twice.',
};

const isObjectSchema = (schema: unknown): schema is JsonSchema =>
  typeof schema === 'object' && schema !== null && (schema as JsonSchema).type === 'object';

/** A plain JSON copy: TypeBox's symbol-keyed markers drop out, `$id`s with them. */
const plain = <T>(schema: T): T => JSON.parse(JSON.stringify(schema));

/** The object branch of a 2xx schema (a list that is a bare array unpaginated answers the page). */
function outputSchemaOf(response: Record<string, unknown> | undefined): JsonSchema | undefined {
  const success = Object.entries(response ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
  if (isObjectSchema(success)) return plain(success);
  const branches = (success as { anyOf?: unknown[] } | undefined)?.anyOf?.filter(isObjectSchema) ?? [];
  return branches.length === 1 ? plain(branches[0]) : undefined;
}

/** Path params, query and body of a route merged into one object schema (the tool's input). */
function inputSchemaOf(schemas: RouteSchemas, spec: RouteToolSpec) {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const sources = { params: schemas.params, query: schemas.querystring, body: schemas.body };
  const fields: Record<keyof typeof sources, string[]> = { params: [], query: [], body: [] };
  for (const [source, schema] of Object.entries(sources) as [keyof typeof sources, unknown][]) {
    if (!schema) continue;
    if (!isObjectSchema(schema)) {
      // A body that is not one object (rare) travels whole under `body`.
      properties.body = plain(schema);
      required.add('body');
      fields.body.push('*');
      continue;
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      properties[name] = plain(property);
      fields[source].push(name);
    }
    for (const name of (schema.required as string[] | undefined) ?? []) required.add(name);
  }
  if (spec.idempotencyKey) properties.idempotency_key = IDEMPOTENCY_KEY;
  const inputSchema: JsonSchema = {
    type: 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
  };
  return { inputSchema, fields };
}

/** Builds the REST call: params into the path, query fields into the query string, the rest as body. */
function restCallOf(
  method: RestCall['method'],
  path: string,
  fields: Record<string, string[]>,
  spec: RouteToolSpec,
) {
  return (args: Record<string, unknown>): RestCall => {
    const url = path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => pathSegment(name, args[name]));
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...spec.queryDefaults, ...pick(args, fields.query!) })) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
    const search = query.size > 0 ? `?${query}` : '';
    const body = fields.body!.includes('*') ? args.body : pick(args, fields.body!);
    const hasBody = fields.body!.length > 0;
    const idempotencyKey = typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined;
    return {
      method,
      url: `${url}${search}`,
      ...(hasBody ? { body } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    };
  };
}

function pick(args: Record<string, unknown>, names: string[]) {
  return Object.fromEntries(
    names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]),
  );
}

/**
 * A tool that IS one REST route: its schemas come from the route, its annotations from the HTTP
 * method's semantics (GET reads, PUT and DELETE are idempotent, DELETE destroys).
 */
export function routeTool(catalog: RouteCatalog, spec: RouteToolSpec): McpTool {
  const [method, path] = spec.route.split(' ') as [RestCall['method'], string];
  const schemas = catalog.schemas(spec.route);
  const { inputSchema, fields } = inputSchemaOf(schemas, spec);
  const outputSchema = outputSchemaOf(schemas.response);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      readOnlyHint: method === 'GET',
      destructiveHint: spec.destructive ?? method === 'DELETE',
      idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
      openWorldHint: false,
    },
    rest: restCallOf(method, path, fields, spec),
  };
}

/**
 * One path parameter as a URL segment. A missing value or a dot segment would make the URL name
 * another route once normalised (`draft_id: ".."` → the inbox itself): refused, naming the field.
 */
function pathSegment(name: string, value: unknown): string {
  if (value === undefined || value === null || value === '') {
    throw new AppError('parameter_missing', `${name} is required.`, { param: name });
  }
  const text = String(value);
  if (text === '.' || text === '..') {
    throw new AppError('parameter_invalid', `${name} is not a valid id.`, { param: name });
  }
  return encodeURIComponent(text);
}
