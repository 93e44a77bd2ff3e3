import type { PlatformDeps } from '../app/platform-deps.ts';
import type { AppInstance } from '../core/http/types.ts';
import { analysisRoutes } from './analyses/routes.ts';
import { apiSecretRoutes } from './api-secrets/routes.ts';
import { customFunctionRoutes } from './custom-functions/routes.ts';
import { feedbackRoutes } from './feedback/routes.ts';
import { goalRoutes } from './goals/routes.ts';
import { guardrailRoutes } from './guardrails/routes.ts';
import { meetingRoutes } from './meetings/routes.ts';
import { memoryRoutes } from './memories/routes.ts';
import { personaRoutes } from './personas/routes.ts';
import { recordingRoutes } from './recordings/routes.ts';
import { scenarioRoutes } from './scenarios/routes.ts';
import { transcriptRoutes } from './transcripts/routes.ts';
import { usageRoutes } from './usage/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';

/** Every /v1 resource, registered inside the authenticated scope. Add one line per resource. */
export async function registerPlatformRoutes(v1: AppInstance, deps: PlatformDeps): Promise<void> {
  await apiSecretRoutes(v1, deps);
  await personaRoutes(v1, deps);
  await goalRoutes(v1, deps);
  await scenarioRoutes(v1, deps);
  await guardrailRoutes(v1, deps);
  await webhookRoutes(v1, deps);
  await customFunctionRoutes(v1, deps);
  await memoryRoutes(v1, deps);
  await feedbackRoutes(v1, deps);
  await analysisRoutes(v1, deps);
  await meetingRoutes(v1, deps);
  await transcriptRoutes(v1, deps);
  await recordingRoutes(v1, deps);
  await usageRoutes(v1, deps);
}
