import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { memoryRoutes } from './routes.ts';
import { MemoryService } from './service.ts';

export function createMemoriesModule(deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator'>) {
  const memories = new MemoryService(deps);
  return { memories, routes: [(app: AppInstance) => memoryRoutes(app, { memories })] };
}
