import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** The Fastify instance every route module receives: TypeBox schemas type the handlers. */
export type AppInstance = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One resource's routes, registered inside an authenticated, rate-limited, idempotent scope. */
export type RouteModule<Deps> = (app: AppInstance, deps: Deps) => void | Promise<void>;
