import type { HttpClient } from './http-client.js';
import type { OperationSpec, OperationTable } from './operation.js';
import { PagePromise } from './pagination.js';
import type { RequestOptions } from './types.js';

type Params = Record<string, unknown>;

/**
 * Builds the namespaces of a generated operation table: each method takes its path parameters
 * positionally (in path order), then one params object, then per-call options.
 */
export function bindOperations<Api>(table: OperationTable, http: HttpClient): Api {
  const api: Record<string, Record<string, (...args: unknown[]) => unknown>> = {};
  for (const [namespace, methods] of Object.entries(table)) {
    api[namespace] = {};
    for (const [name, spec] of Object.entries(methods)) api[namespace][name] = operation(spec, http);
  }
  return api as Api;
}

function operation(spec: OperationSpec, http: HttpClient) {
  const count = spec.pathParams.length;
  return (...args: unknown[]) => {
    const pathArgs = args.slice(0, count);
    const params = (args[count] ?? {}) as Params;
    const options = (args[count + 1] ?? {}) as RequestOptions;
    if (spec.pagination) {
      return new PagePromise(spec, params, (page) => http.request(spec, pathArgs, page, options));
    }
    return http.request(spec, pathArgs, params, options);
  };
}
