import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * Route schemas are compiled on a route's first use rather than at `ready()`: compiling the
 * validators and response serialisers of every route of both apps cost about 2.4 s of CPU at each
 * start, most of it for routes a given process may never serve. The first request of a route pays
 * its own compilation (a few milliseconds), and the result is kept.
 */

/**
 * An Ajv validator compiled on its first call. Fastify reads `schemaEnv` (to let Ajv replace the
 * root value) and `errors` (after a failed call) on the function it was given: both are passed
 * through from the compiled one.
 */
export function lazyValidator(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const get = () => {
    compiled ??= compile();
    return compiled;
  };
  const validator = ((data, context) => get()(data, context)) as ValidateFunction;
  Object.defineProperty(validator, 'errors', { get: () => compiled?.errors });
  Object.defineProperty(validator, 'schemaEnv', { get: () => get().schemaEnv });
  return validator;
}

type Serializer = (payload: unknown) => string;
type SerializerRoute = Parameters<FastifySerializerCompiler<unknown>>[0];

/**
 * Fastify's own response serialiser (fast-json-stringify, through the compiler Fastify itself
 * depends on, with the same options as its default), built per route on the first response.
 */
export function createLazySerializerCompiler(): FastifySerializerCompiler<unknown> {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const { SerializerSelector } = fromFastify('@fastify/fast-json-stringify-compiler') as {
    SerializerSelector: () => (
      externalSchemas: object,
      options?: object,
    ) => (route: SerializerRoute) => Serializer;
  };
  let build: ((route: SerializerRoute) => Serializer) | undefined;
  return (route: SerializerRoute): Serializer => {
    let compiled: Serializer | undefined;
    return (payload) => {
      if (!compiled) {
        build ??= SerializerSelector()({}, undefined);
        compiled = build(route);
      }
      return compiled(payload);
    };
  };
}
