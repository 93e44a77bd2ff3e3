import { canonicalJson } from './canonical-json.ts';

/**
 * What a JSON Schema (as OpenAPI 3.0 and 3.1 write it) allows, reduced to what the breaking-change
 * rules compare: the JSON types, the allowed values, the bounds, and each field below it with
 * whether it is required. `$ref`s are followed (a cycle stops at the second visit), `allOf` is
 * intersected, and `anyOf`/`oneOf` are united, so a schema moved into components or split into
 * parts has the same shape as before.
 */
export interface Shape {
  /** JSON type names (`integer` included); null when any type is allowed. */
  types: Set<string> | null;
  /** The allowed values in canonical JSON (from enum and const); null when not restricted. */
  values: Set<string> | null;
  bounds: Bounds;
  fields: Map<string, { shape: Shape; required: boolean }>;
  items: Shape | null;
}

export type Bounds = Partial<Record<BoundName, number>>;
const LOWER = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties'] as const;
const UPPER = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties'] as const;
export type BoundName = (typeof LOWER)[number] | (typeof UPPER)[number];
export const isLowerBound = (name: BoundName) => (LOWER as readonly string[]).includes(name);

type Schema = Record<string, unknown>;
export type Resolve = (ref: string) => unknown;

const MAX_DEPTH = 24;

export function anyShape(): Shape {
  return { types: null, values: null, bounds: {}, fields: new Map(), items: null };
}

export function shapeOf(schema: unknown, resolve: Resolve, seen: string[] = []): Shape {
  if (schema === true || schema === undefined || schema === null || typeof schema !== 'object') {
    return anyShape();
  }
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    // A schema that reaches itself again (a tree, a linked list) is compared one level deep.
    if (seen.includes(node.$ref) || seen.length >= MAX_DEPTH) return anyShape();
    const { $ref, ...siblings } = node;
    const target = shapeOf(resolve($ref), resolve, [...seen, $ref]);
    return Object.keys(siblings).length ? intersect(target, ownShape(siblings, resolve, seen)) : target;
  }
  let shape = ownShape(node, resolve, seen);
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf) shape = intersect(shape, shapeOf(part, resolve, seen));
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      shape = intersect(shape, branches.map((branch) => shapeOf(branch, resolve, seen)).reduce(unite));
    }
  }
  return shape;
}

/** The keywords of one schema object, without its combinators. */
function ownShape(node: Schema, resolve: Resolve, seen: string[]): Shape {
  const shape = anyShape();
  if (typeof node.type === 'string') shape.types = new Set([node.type]);
  if (Array.isArray(node.type)) shape.types = new Set(node.type as string[]);
  if (node.nullable === true && shape.types) shape.types.add('null');
  const allowed = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : null;
  if (allowed) {
    shape.values = new Set(allowed.map(canonicalJson));
    // `{ const: 'open' }` says its type without `type`.
    shape.types ??= new Set(allowed.map(jsonTypeOf));
  }
  for (const name of [...LOWER, ...UPPER]) {
    if (typeof node[name] === 'number') shape.bounds[name] = node[name] as number;
  }
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  if (node.properties && typeof node.properties === 'object') {
    for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) {
      shape.fields.set(name, { shape: shapeOf(child, resolve, seen), required: required.has(name) });
    }
  }
  if (node.items !== undefined && !Array.isArray(node.items))
    shape.items = shapeOf(node.items, resolve, seen);
  return shape;
}

/** Both at once (allOf): the narrower of each fact. */
function intersect(a: Shape, b: Shape): Shape {
  const fields = new Map(a.fields);
  for (const [name, field] of b.fields) {
    const other = fields.get(name);
    fields.set(
      name,
      other
        ? { shape: intersect(other.shape, field.shape), required: other.required || field.required }
        : field,
    );
  }
  const bounds: Bounds = { ...a.bounds };
  for (const [name, value] of Object.entries(b.bounds) as [BoundName, number][]) {
    const mine = bounds[name];
    bounds[name] =
      mine === undefined ? value : isLowerBound(name) ? Math.max(mine, value) : Math.min(mine, value);
  }
  return {
    types: a.types && b.types ? intersectTypes(a.types, b.types) : (a.types ?? b.types),
    values:
      a.values && b.values ? new Set([...a.values].filter((v) => b.values!.has(v))) : (a.values ?? b.values),
    bounds,
    fields,
    items: a.items && b.items ? intersect(a.items, b.items) : (a.items ?? b.items),
  };
}

/** Either one (anyOf, oneOf): the wider of each fact. A field is required only where every branch requires it. */
function unite(a: Shape, b: Shape): Shape {
  const fields = new Map<string, { shape: Shape; required: boolean }>();
  for (const name of new Set([...a.fields.keys(), ...b.fields.keys()])) {
    const left = a.fields.get(name);
    const right = b.fields.get(name);
    fields.set(name, {
      shape: left && right ? unite(left.shape, right.shape) : (left ?? right)!.shape,
      required: Boolean(left?.required && right?.required),
    });
  }
  const bounds: Bounds = {};
  for (const [name, value] of Object.entries(a.bounds) as [BoundName, number][]) {
    const other = b.bounds[name];
    if (other !== undefined)
      bounds[name] = isLowerBound(name) ? Math.min(value, other) : Math.max(value, other);
  }
  return {
    types: a.types && b.types ? new Set([...a.types, ...b.types]) : null,
    values: uniteValues(a, b),
    bounds,
    fields,
    items: a.items && b.items ? unite(a.items, b.items) : null,
  };
}

/** A branch that only allows null (`{ type: 'null' }`) adds the value null to an enumeration. */
function uniteValues(a: Shape, b: Shape): Set<string> | null {
  const valuesOf = (shape: Shape) =>
    shape.values ?? (shape.types?.size === 1 && shape.types.has('null') ? new Set(['null']) : null);
  const left = valuesOf(a);
  const right = valuesOf(b);
  return left && right ? new Set([...left, ...right]) : null;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The types both sets accept: `number` with `integer` is `integer`. */
function intersectTypes(a: Set<string>, b: Set<string>): Set<string> {
  const both = new Set([...a].filter((type) => covers(b, type)));
  for (const type of b) if (covers(a, type)) both.add(type);
  return both;
}

/** Whether a set of JSON types accepts values of `type` (every integer is a number). */
export function covers(types: Set<string> | null, type: string): boolean {
  return types === null || types.has(type) || (type === 'integer' && types.has('number'));
}
