import { type Resolve, shapeOf } from './schema-shape.ts';

type Json = Record<string, unknown>;

/** One OpenAPI document, with internal `$ref`s (`#/components/...`) followed on demand. */
export class OpenApiDocument {
  constructor(private readonly root: Json) {}

  map(group: 'paths' | 'webhooks'): Json {
    return (this.root[group] ?? {}) as Json;
  }

  readonly resolve: Resolve = (ref) => {
    if (!ref.startsWith('#/')) throw new Error(`only references inside the document are supported: ${ref}`);
    let target: unknown = this.root;
    for (const part of ref.slice(2).split('/')) {
      target = (target as Json | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    if (target === undefined) throw new Error(`unresolved reference ${ref}`);
    return target;
  };

  /** Follows a `$ref` on a path item, parameter, request body or response (not on schemas). */
  deref(value: unknown): unknown {
    let current = value;
    for (let hops = 0; hops < 16 && current && typeof (current as Json).$ref === 'string'; hops++) {
      current = this.resolve((current as Json).$ref as string);
    }
    return current;
  }

  shape(schema: unknown) {
    return shapeOf(schema, this.resolve);
  }

  /** Path-level and operation-level parameters by `in name` (header names compared without case). */
  parameters(item: Json, operation: Json): Map<string, Json> {
    const result = new Map<string, Json>();
    for (const raw of [
      ...((item.parameters as unknown[]) ?? []),
      ...((operation.parameters as unknown[]) ?? []),
    ]) {
      const param = this.deref(raw) as Json;
      const name = param.in === 'header' ? String(param.name).toLowerCase() : String(param.name);
      result.set(`${param.in} ${name}`, param);
    }
    return result;
  }
}
