// Who leads the conversation. In interviews and coaching the persona asks its script's questions;
// in requirement gathering, discovery and sales calls, customer and stakeholder role-plays and
// brainstorms the participant asks, and the persona answers from what its scenario gives it.
import { scenarioKind } from './defaults.ts';

export type Lead = 'persona' | 'participant';

/** The script says outright that the participant asks the questions. */
const PARTICIPANT_ASKS =
  /\b(?:participant|candidate|rep|user)\b[^.]{0,80}\b(?:gathering|gathers|interviews you|asks? (?:you|the questions)|lead the conversation|leads the conversation|drives|discovery|trying to find out|facilitates)\b|\blet them ask\b|\banswer (?:their|the participant's) questions\b/i;
/** The script says outright that the persona asks. */
const PERSONA_ASKS = /\byou (?:lead|run|conduct) (?:the|this) (?:session|interview|conversation|call)\b/i;

export function whoLeads(scenarioType: string, prompt: string | null): Lead {
  const text = prompt ?? '';
  if (PERSONA_ASKS.test(text)) return 'persona';
  if (PARTICIPANT_ASKS.test(text)) return 'participant';
  const kind = scenarioKind(scenarioType);
  return kind === 'roleplay' || kind === 'brainstorm' ? 'participant' : 'persona';
}
