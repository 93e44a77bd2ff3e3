// Questions about the conversation itself ("are you an AI?", "who are you?"), answered the way the
// persona would: it never mentions a script engine, a simulation or an AI unless its scenario allows it.

export interface Identity {
  personaName: string;
  jobTitle: string | null;
  prompt: string | null;
}

/** What a participant may suspect the persona of being. */
const MACHINE = String.raw`(?:ai|a\.i\.|artificial intelligence|(?:chat ?)?bot|robot(?:ic)?|chat ?gpt|gpt(?:-?\d)?|llm|language model|machine(?! learning)|computer(?: program)?|algorithm|automated|(?:virtual|digital) (?:assistant|agent|coach|interviewer|person|human)|simulat\w*|pre-?recorded|recording)`;
/** "a real person", "human", "an actual coach" right after "are you" or "talking to". */
const PERSON = `(?:an? )?(?:(?:real|actual|live) (?:person|human|people|coach|interviewer|manager|one)|human(?: being)?|real|person)`;
const CALL = `(?:call|chat|conversation|interview|session|meeting|practice|exercise|thing|1:1|one-on-one|check-in|coaching)`;
/** Who or what is meant: the persona ("are you…", "you sound like…") or the call itself ("is this…"). */
const ASKS_IF_REAL = new RegExp(
  [
    // "are you an AI?", "are you an actual coach or an AI?", "r u a bot", "are you even human?"
    String.raw`\b(?:are|r) (?:you|u) (?:(?:an?|the|actual|real|live|human|person|coach|interviewer|manager|trainer|mentor|someone|or|just|even|really|actually|some|kind|sort|of|like|maybe|perhaps|by|any) ){0,6}?${MACHINE}\b`,
    String.raw`\b(?:are|r) (?:you|u) (?:even |actually |really |just )?${PERSON}\b`,
    // "is this interview run by an AI?", "is this a real call or an AI thing?" (the call, not a product)
    String.raw`\bis this (?:(?:(?:an?|the|whole|some|kind|sort|of|real|actual|live) ){0,4}${CALL}\b[^.?!]{0,40}?|(?:(?:an?|some|kind|sort|of|all|fully|just) ){0,4})${MACHINE}\b`,
    // "Is it a robot I'm talking to?", "I'm talking to a bot, right?"
    String.raw`\b(?:talking|speaking|chatting) (?:to|with) (?:an? )?${MACHINE}\b|\b${MACHINE} (?:i'?m|i am) (?:talking|speaking|chatting) (?:to|with)\b`,
    // "You're a bot, aren't you?", "You're not a real person, are you?"
    String.raw`\byou(?:'re| are) (?:not |just |only )?(?:an? |some )?(?:${MACHINE}|${PERSON})\b`,
    // "Is someone actually there?", "Real person or AI?", "Human or bot?"
    String.raw`\bis (?:someone|anyone|somebody|a (?:real )?(?:person|human)) (?:actually |really )?(?:there|real|listening|on the other end)\b`,
    String.raw`\b(?:real |actual |live )?(?:person|human|people)\b[^.?!]{0,12}\bor\b[^.?!]{0,12}\b${MACHINE}\b|\b${MACHINE}\b[^.?!]{0,12}\bor\b[^.?!]{0,12}\b(?:real |actual |live )?(?:person|human)\b`,
    String.raw`\bis this (?:even )?(?:real|fake|a test)\b`,
    // "Is this actually you, Abby, or an AI?", "…or just a bot?"
    String.raw`\bor (?:(?:an?|some|just|maybe|even) ){0,2}${MACHINE}\b[^.!?]{0,12}\?|\bis (?:this|that|it) (?:actually |really |even )?you\b[^.!?]{0,20}\?`,
    // "am I talking to a bot?", "am I practising with a real person here?"
    String.raw`\b(?:am i|are we) (?:actually |really )?\w+ing (?:to|with) (?:an? )?(?:${MACHINE}|${PERSON})\b`,
    // "you sound like ChatGPT", "you sound a bit robotic"
    String.raw`\byou (?:sound|seem|talk|type|write|come across)\b[^.?!]{0,25}\b${MACHINE}\b`,
    String.raw`\b(?:a human|a person|someone|anyone) (?:on the other end|behind this)\b`,
    String.raw`\bsimulat\w*\b|\brole-?play\b|\breal conversation\b`,
  ].join('|'),
  'i',
);

const ASKS_IDENTITY =
  /\b(?:who are you|what(?:'s| is) your (?:name|role|job|position|title)|what do you do|introduce yourself)\b/i;
/** The scenario lets the persona say what it is. */
const MAY_DISCLOSE =
  /\byou (?:may|can) (?:say|admit|mention|reveal|tell[^.]*) (?:that )?(?:you are|you're|this is) (?:an? )?(?:ai|simulat\w*|practice)\b|\bbreaking character is (?:fine|allowed)\b/i;

function introduction(who: Identity): string {
  const title = who.jobTitle?.trim();
  return title ? `I'm ${who.personaName}, ${title}.` : `I'm ${who.personaName}.`;
}

/** Whether the words ask if the persona is an AI, a bot or a real person (anywhere in a longer turn). */
export function asksIfReal(text: string): boolean {
  return ASKS_IF_REAL.test(text.replace(/[’‘]/g, "'"));
}

/** The persona's answer to a question about who or what it is; null for any other question. */
export function answerAboutItself(who: Identity, question: string): string[] | null {
  if (asksIfReal(question)) {
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
