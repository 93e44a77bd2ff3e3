// The evaluation set on hand-written scenarios (docs/offline-engine.md, issue 27).
import { BRAINSTORMS } from './brainstorm.ts';
import { COMPLAINT_DISCOVERY } from './complaint-discovery.ts';
import { PERSONA_LED } from './persona-led.ts';
import { SALES_NEGOTIATION } from './sales-negotiation.ts';
import type { EvaluationScenario } from './types.ts';

export const EVALUATION_SET: EvaluationScenario[] = [
  ...SALES_NEGOTIATION,
  ...COMPLAINT_DISCOVERY,
  ...BRAINSTORMS,
  ...PERSONA_LED,
];
