import type { Logger } from 'pino';
import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { LlmClient } from '../../core/llm/index.ts';
import type { OutboundPolicy } from '../../core/outbound/index.ts';
import type { GoalService } from '../goals/service.ts';
import type { PersonaService } from '../personas/service.ts';
import { ScenarioTransfer } from './export.ts';
import { ScenarioGenerator } from './generate/service.ts';
import { scenarioRoutes } from './routes.ts';
import { seedDefaultScenarios } from './seeds.ts';
import { ScenarioService } from './service.ts';

export interface ScenariosModuleDeps
  extends Pick<CoreDeps, 'db' | 'clock' | 'secretBox' | 'paginator' | 'config'> {
  personas: PersonaService;
  goals: GoalService;
  llm: LlmClient | null;
  outboundPolicy: OutboundPolicy;
  logger: Logger;
}

/**
 * Scenarios, their export/import and create-with-gpt; `seedAccount` puts the two default scenarios
 * into every new workspace (run inside the sign-up transaction).
 */
export function createScenariosModule(deps: ScenariosModuleDeps) {
  const { db, clock, secretBox, paginator, config, personas, goals, outboundPolicy } = deps;
  const scenarios = new ScenarioService({
    db,
    clock,
    secretBox,
    paginator,
    personas,
    goals,
    outboundPolicy,
    appEnv: config.appEnv,
    legacyWebhookSunset: config.legacyWebhookSunset,
  });
  const scenarioTransfer = new ScenarioTransfer({
    db,
    clock,
    secretBox,
    personas,
    goals,
    scenarios,
    outboundPolicy,
  });
  const scenarioGenerator = new ScenarioGenerator({
    db,
    llm: deps.llm,
    personas,
    goals,
    scenarios,
    logger: deps.logger,
  });
  return {
    scenarios,
    scenarioTransfer,
    scenarioGenerator,
    seedAccount: seedDefaultScenarios({ personas, goals, scenarios }),
    routes: [
      (app: AppInstance) => scenarioRoutes(app, { scenarios, scenarioTransfer, scenarioGenerator, config }),
    ],
  };
}
