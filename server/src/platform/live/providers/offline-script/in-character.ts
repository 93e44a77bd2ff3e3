// Questions about the conversation itself ("are you an AI?", "who are you?"), answered the way the
// persona would: it never mentions a script engine, a simulation or an AI unless its scenario allows it.

export interface Identity {
  personaName: string;
  jobTitle: string | null;
  prompt: string | null;
}

const ASKS_IF_REAL =
  /\b(?:are|r) (?:you|u) (?:an? |even |actually |really )?(?:ai|a\.i\.|bot|robot|real|human|person|machine|computer|program|llm|chatbot|chat ?gpt|language model|actual person|recording|script|simulat\w*)\b|\bam i (?:talking|speaking) (?:to|with) (?:an? )?(?:ai|bot|robot|human|real person|person|machine|computer|script)\b|\bsimulat\w*\b|\breal conversation\b|\brole-?play\b|\bis this (?:real|fake|a test)\b/i;
const ASKS_IDENTITY =
  /\b(?:who are you|what(?:'s| is) your (?:name|role|job|position|title)|what do you do|introduce yourself)\b/i;
/** The scenario lets the persona say what it is. */
const MAY_DISCLOSE =
  /\byou (?:may|can) (?:say|admit|mention|reveal|tell[^.]*) (?:that )?(?:you are|you're|this is) (?:an? )?(?:ai|simulat\w*|practice)\b|\bbreaking character is (?:fine|allowed)\b/i;

function introduction(who: Identity): string {
  const title = who.jobTitle?.trim();
  return title ? `I'm ${who.personaName}, ${title}.` : `I'm ${who.personaName}.`;
}

/** The persona's answer to a question about who or what it is; null for any other question. */
export function answerAboutItself(who: Identity, question: string): string[] | null {
  if (ASKS_IF_REAL.test(question)) {
    if (MAY_DISCLOSE.test(who.prompt ?? '')) {
      return ["I'm an AI practice partner, so treat this as a rehearsal for the real thing."];
    }
    const first = who.personaName.split(/\s+/)[0];
    return [
      `It's just me, ${first}, and this is real enough for me.`,
      `Ha, it's ${first}, same as before, and I'm taking this seriously.`,
      `Still ${first} on this end, and I'd like to use our time well.`,
    ];
  }
  if (ASKS_IDENTITY.test(question)) return [introduction(who)];
  return null;
}
