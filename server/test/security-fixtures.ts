// Every resource's security fixture of the platform, for tests that walk all /v1 routes.
import { analysesSecurity } from './analyses/security-fixture.ts';
import { analyticsSecurity } from './analytics/security-fixture.ts';
import { apiKeysSecurity } from './api-keys/security-fixture.ts';
import { assignmentsSecurity } from './assignments/security-fixture.ts';
import { customFunctionsSecurity } from './custom-functions/security-fixture.ts';
import { eventsSecurity } from './events/security-fixture.ts';
import { feedbackSecurity } from './feedback/security-fixture.ts';
import { goalsSecurity } from './goals/security-fixture.ts';
import { guardrailsSecurity } from './guardrails/security-fixture.ts';
import { meetingsSecurity } from './meetings/security-fixture.ts';
import { memoriesSecurity } from './memories/security-fixture.ts';
import { peopleSecurity } from './people/security-fixture.ts';
import { personasSecurity } from './personas/security-fixture.ts';
import { scenariosSecurity } from './scenarios/security-fixture.ts';
import { leavingSecurity, teamSecurity } from './team/security-fixture.ts';
import { webhooksSecurity } from './webhooks/security-fixture.ts';
import { workspaceSecurity } from './workspace/security-fixture.ts';

export const PLATFORM_SECURITY_FIXTURES = [
  apiKeysSecurity,
  personasSecurity,
  goalsSecurity,
  scenariosSecurity,
  guardrailsSecurity,
  customFunctionsSecurity,
  webhooksSecurity,
  memoriesSecurity,
  feedbackSecurity,
  analysesSecurity,
  meetingsSecurity,
  eventsSecurity,
  workspaceSecurity,
  teamSecurity,
  leavingSecurity,
  peopleSecurity,
  assignmentsSecurity,
  analyticsSecurity,
];
