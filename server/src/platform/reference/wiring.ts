import type { AppInstance } from '../../core/http/types.ts';
import { registerReferenceSite } from './routes.ts';

/** The reference site at /docs (outside /v1): pages only, no services of its own. */
export function createReferenceModule() {
  return { publicRoutes: [(app: AppInstance) => registerReferenceSite(app)] };
}
