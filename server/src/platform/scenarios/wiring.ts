import type { CoreDeps } from '../../core/deps.ts';
import { createLlmClient } from '../../core/llm/index.ts';
import { outboundPolicyFor } from '../../core/outbound/address-policy.ts';
import { GoalService } from '../goals/service.ts';
import type { AccountCreatedHook } from '../identity/accounts.ts';
import { PersonaService } from '../personas/service.ts';
import { ScenarioTransfer } from './export.ts';
import { ScenarioGenerator } from './generate/service.ts';
import { seedDefaultScenarios } from './seeds.ts';
import { ScenarioService } from './service.ts';

/** The authoring services (personas, goals, scenarios), built once per process. */
export interface AuthoringServices {
  personas: PersonaService;
  goals: GoalService;
  scenarios: ScenarioService;
  scenarioTransfer: ScenarioTransfer;
  scenarioGenerator: ScenarioGenerator;
}

/** Also registers the sign-up hook that seeds the two default scenarios into every new account. */
export function createAuthoringServices(
  core: CoreDeps,
  accountHooks: AccountCreatedHook[],
): AuthoringServices {
  const { db, clock, secretBox, paginator, config } = core;
  const personas = new PersonaService({ db, clock, paginator, publicUrl: config.publicUrl });
  const goals = new GoalService({ db, clock, paginator });
  const scenarios = new ScenarioService({
    db,
    clock,
    secretBox,
    paginator,
    personas,
    goals,
    outboundPolicy: outboundPolicyFor(config),
    appEnv: config.appEnv,
  });
  const scenarioTransfer = new ScenarioTransfer({
    db,
    clock,
    secretBox,
    personas,
    goals,
    scenarios,
    outboundPolicy: outboundPolicyFor(config),
  });
  accountHooks.push(seedDefaultScenarios({ personas, goals, scenarios }));
  const scenarioGenerator = new ScenarioGenerator({
    db,
    llm: config.llm ? createLlmClient(config.llm) : null,
    personas,
    goals,
    scenarios,
    logger: core.logger,
  });
  return { personas, goals, scenarios, scenarioTransfer, scenarioGenerator };
}
