import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { AuditLog } from '../team/audit.ts';
import type { ApiKeyVerifier } from './key-verifier.ts';
import { apiSecretRoutes } from './routes.ts';
import { ApiSecretService } from './service.ts';

/** API keys: created and revoked here, verified by the shared ApiKeyVerifier. */
export function createApiSecretsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'paginator'> & { apiKeys: ApiKeyVerifier; audit: AuditLog },
) {
  const apiSecrets = new ApiSecretService(deps);
  return { apiSecrets, routes: [(app: AppInstance) => apiSecretRoutes(app, { apiSecrets })] };
}
