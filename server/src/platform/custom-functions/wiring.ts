import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { customFunctionRoutes } from './routes.ts';
import { CustomFunctionService } from './service.ts';

export function createCustomFunctionsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'secretBox' | 'paginator' | 'config'>,
) {
  const functions = new CustomFunctionService(deps);
  return { functions, routes: [(app: AppInstance) => customFunctionRoutes(app, { functions })] };
}
