import type { FastifyInstance } from 'fastify';

/** Cross-cutting plugins install on any Fastify instance, whatever its logger or type provider. */
// biome-ignore lint/suspicious/noExplicitAny: the plugins touch no typed route generics
export type AnyFastify = FastifyInstance<any, any, any, any, any>;
