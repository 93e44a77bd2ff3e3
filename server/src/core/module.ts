import type { AppInstance } from './http/types.ts';
import type { JobDefinition } from './jobs/index.ts';
import type { BackgroundWorker } from './workers.ts';

/** A route module already bound to its services by the module's wiring. */
export type BoundRoutes = (app: AppInstance) => void | Promise<void>;

/**
 * What a feature module's `wiring.ts` hands the composition root besides its services: routes for
 * the service's authenticated scope, routes outside it, durable jobs and background loops.
 */
export interface ModuleParts {
  routes?: BoundRoutes[];
  publicRoutes?: BoundRoutes[];
  jobs?: JobDefinition<any>[];
  workers?: BackgroundWorker[];
}
