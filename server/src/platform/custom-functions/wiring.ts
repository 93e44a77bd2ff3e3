import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { FunctionCaller } from '../live/function-call.ts';
import { customFunctionRoutes } from './routes.ts';
import { CustomFunctionService } from './service.ts';

export function createCustomFunctionsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'secretBox' | 'paginator' | 'config'> & {
    /** The SSRF-safe outbound client: test calls go out exactly as a meeting's do. */
    outbound: FunctionCaller;
  },
) {
  const functions = new CustomFunctionService(deps);
  const testCall = { db: deps.db, clock: deps.clock, secretBox: deps.secretBox, caller: deps.outbound };
  return {
    functions,
    routes: [(app: AppInstance) => customFunctionRoutes(app, { functions, testCall })],
  };
}
