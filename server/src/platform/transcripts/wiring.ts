import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { transcriptRoutes } from './routes.ts';
import { TranscriptService } from './service.ts';

export function createTranscriptsModule(deps: Pick<CoreDeps, 'db' | 'paginator'>) {
  const transcripts = new TranscriptService(deps);
  return {
    transcripts,
    routes: [(app: AppInstance) => transcriptRoutes(app, { meetings: { transcripts } })],
  };
}
