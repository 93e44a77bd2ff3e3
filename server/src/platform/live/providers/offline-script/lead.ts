// Who leads the conversation. In interviews and coaching the persona asks its script's questions,
// unless the scenario casts the persona as the candidate or the coachee (then the participant asks);
// in requirement gathering, discovery and sales calls, customer and stakeholder role-plays and
// brainstorms the participant asks, and the persona answers from what its scenario gives it.
import { scenarioKind } from './defaults.ts';

export type Lead = 'persona' | 'participant';

/** The script says outright that the participant asks the questions. */
const PARTICIPANT_ASKS =
  /\b(?:participant|candidate|rep|user)\b[^.]{0,80}\b(?:gathering|gathers|interviews you|asks? (?:you|the questions)|lead the conversation|leads the conversation|drives|discovery|trying to find out|facilitates|negotiat\w*|selling|sells|pitch(?:es|ing)|handl(?:es|ing) (?:the|your|his|her|their) (?:call|complaint|case|request)|works? (?:there|in|at|for the (?:billing|support|service|help)))\b|\blet them ask\b|\banswer (?:their|the participant's) questions\b/i;
/** The script says outright that the persona asks ("You lead the interview", "He runs this interview", "She leads."). */
const PERSONA_ASKS =
  /\b(?:you|he|she|(?!(?:participant|candidate|rep|user|learner|trainee|caller|customer|they|who|and)\b)[a-z]+) (?:lead|leads|run|runs|conduct|conducts|hold|holds) (?:the|this|a) (?:session|interview|conversation|call|1:1|one-on-one|meeting|check-in|coaching|practice)\b|\b(?:you|he|she) leads?\.|\byou lead\b/i;
/** Roles that ask the questions, and roles that answer them. */
const ASKER = `(?:coach|mentor|interviewer|interview(?:ing)? panel|panel|hiring manager|recruiter|assessor|examiner)`;
const ANSWERER = `(?:candidate|applicant|interviewee|coachee|mentee)`;
/**
 * Who plays which role, said in so many words: "the participant is her coach", "the participant is
 * on the interview panel", "You are Grace, a candidate interviewing for…", "Amara is a coachee": the
 * participant asks. "The participant is a candidate for…": the persona asks.
 */
const PARTICIPANT_IS_ASKER = new RegExp(
  String.raw`\b(?:participant|user|learner|trainee)\b (?:is|plays|will be|acts as)\b[^.]{0,40}?\b${ASKER}s?\b|\blet the ${ASKER} ask\b|\b(?:if|when|once) the ${ASKER} asks\b|\b(?:participant|user|learner|trainee)\b[^.]{0,60}\b(?:coach|mentor|interview)(?:es|s|ing)? (?:her|him|them|you)\b`,
  'i',
);
const PERSONA_IS_ANSWERER = new RegExp(
  String.raw`\b(?:[Yy]ou(?: are|'re)|is)\s+(?:\p{Lu}[\p{L}'-]*,?\s+){0,3}(?:a|an) (?:[\p{Ll}-]+ ){0,2}${ANSWERER}\b|\b(?:[Yy]ou(?: are|'re)|is) (?:being (?:interviewed|coached|mentored)|applying for|interviewing for)\b`,
  'u',
);
const PARTICIPANT_IS_ANSWERER = new RegExp(
  String.raw`\b(?:participant|user|learner|trainee)\b (?:is|plays|will be|acts as)\b[^.]{0,20}?\b(?:a|an|the) (?:\w+ ){0,2}${ANSWERER}\b`,
  'i',
);
/** Scenario types where the participant does the business (sells, negotiates, handles a complaint) and the persona responds. */
const PARTICIPANT_TYPES =
  /negotiat|sales|sell|pitch|complain|support|customer|discovery|requirement|stakeholder|objection/i;

export function whoLeads(scenarioType: string, prompt: string | null): Lead {
  const text = prompt ?? '';
  if (PERSONA_ASKS.test(text)) return 'persona';
  if (PARTICIPANT_IS_ANSWERER.test(text)) return 'persona';
  if (PARTICIPANT_IS_ASKER.test(text) || PERSONA_IS_ANSWERER.test(text)) return 'participant';
  if (PARTICIPANT_ASKS.test(text)) return 'participant';
  if (PARTICIPANT_TYPES.test(scenarioType)) return 'participant';
  const kind = scenarioKind(scenarioType);
  return kind === 'roleplay' || kind === 'brainstorm' ? 'participant' : 'persona';
}
