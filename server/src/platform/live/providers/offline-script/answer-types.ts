// What kind of answer a question asks for, and what kinds a fact can give. "When does the contract
// come up?" wants a date, "Where are your sites?" a place, "Who signs?" a person, "How long…" a
// duration, "How much…" an amount: a fact holding one answers it even when no word is shared. The
// question's kind is read from its question words; the fact's kinds from compromise's tagger
// (dates, durations, money, places, people, organisations, numbers).
import nlp from 'compromise';

export type AnswerType = 'date' | 'duration' | 'money' | 'quantity' | 'person' | 'place' | 'reason' | 'name';

/** Question forms → the kinds of answer they ask for. Order does not matter: a question may ask several. */
const ASKS: [RegExp, AnswerType[]][] = [
  [/\bhow old\b|\bsince when\b/i, ['date', 'duration']],
  // "What are the shift hours?", "Which hours do you work?": a time of day and how long.
  [
    /\b(?:what|which|the|your|opening|working) hours\b|\b(?:what|which)\b[^?.]*\bhours\b/i,
    ['date', 'duration'],
  ],
  [/\bhow long\b|\bhow many (?:years|months|weeks|days|hours|minutes)\b|\bsince when\b/i, ['duration']],
  [
    /\bwhen\b|\bwhat (?:date|day|time|month|year)\b|\bby when\b|\bhow soon\b|\bdeadline\b|\bwhich (?:quarter|month|day|year)\b/i,
    ['date'],
  ],
  [
    /\bhow much\b|\b(?:cost|costs|price|prices|pay|paying|paid|spend|spending|charge|charged|charging|budget|quote|quoted|rent|salary|fee|fees|afford|worth|money)\b|\b(?:lowest|highest|minimum|maximum) (?:you(?:'d| would)|we(?:'d| would)|you can|we can)\b/i,
    ['money'],
  ],
  [
    /\bhow (?:many|much|big|often|large)\b|\bwhat (?:number|percentage|share|proportion|volume|size)\b|\bhow many\b|\bvolumes?\b|\b(?:the|that) (?:figure|number|amount)\b/i,
    ['quantity'],
  ],
  [
    /\bwho(?:m|se)?\b|\b(?:which|what) (?:company|firm|vendor|supplier|provider|insurer|person|name)\b/i,
    ['person'],
  ],
  [
    /\bwhere\b|\b(?:which|what) (?:city|town|country|site|sites|location|office|branch|region|area|part)\b/i,
    ['place'],
  ],
  // "Which ERP do you use?", "What machine is it?", "What's the business called?": a name.
  [
    /\bwhich (?!(?:one|ones|way|of)\b)[a-z-]+\b|\bwhat (?:[a-z-]+ )?(?:tool|system|software|platform|product|brand|model|machine|app|service|company|firm|vendor|supplier|provider|insurer|insurance|bank|school|practice|hospital|clinic|unit|address|street|hotel|team|department)\b|\bcalled\b|\bname of\b|\bwhat(?:'s| is) (?:it|the \w+) called\b/i,
    ['name'],
  ],
  // "What would that money pay for?", "What is it for?": a purpose is a reason.
  [
    /\bwhy\b|\bhow come\b|\bwhat for\b|\bwhat (?:caused|made)\b|\breason\b|\bwhat (?:would|will|does|did|is|was|are|were) (?:[\w']+ ){0,3}for\s*\??$/i,
    ['reason'],
  ],
];

export function askedTypes(question: string): Set<AnswerType> {
  const types = new Set<AnswerType>();
  for (const [pattern, kinds] of ASKS) if (pattern.test(question)) for (const k of kinds) types.add(k);
  // "How much time…" asks for a duration, not an amount of money.
  if (/\bhow much time\b/i.test(question)) return new Set<AnswerType>(['duration']);
  return types;
}

const NAMED = /(?<![.!?]\s)\b(?!I\b|I'|The\b|A\b|An\b)\p{Lu}[\p{L}\d&'-]*/u;

/** Causes and purposes: "…because…", "…enough to fund a second night nurse", "…£600 to cover rising costs". */
const REASON =
  /\b(?:because|since|so that|due to|as a result|which is why|that's why|after|enough to|in order to|so as to|to (?:cover|fund|pay for|afford|keep|avoid|make sure|stop))\b/i;

/** "Current rent is 2,100 a month": a number said of a price, a rent or a salary is money without a currency. */
const PRICED =
  /\b(?:rent|price|prices|cost|costs|pay|pays|paid|salary|fee|fees|budget|quote|quoted|charge|charged|spend|wage|rate|rates)\b[^.]{0,30}\d|\d[\d,.]*\s*k?\s+(?:a|per) (?:month|year|week|hour|head|seat|user)\b/i;

export function factTypes(text: string): Set<AnswerType> {
  const doc = nlp(text);
  const types = new Set<AnswerType>();
  const has = (match: string) => doc.has(match);
  if (
    has('#Money') ||
    /[$£€¥]\s?\d|\d\s?(?:k|m|euros?|dollars?|pounds?|cents?|p)\b/i.test(text) ||
    PRICED.test(text)
  )
    types.add('money');
  if (has('#Value #Duration') || /\b(?:a|an|one|few|several) (?:year|month|week|day|hour)s?\b/i.test(text))
    types.add('duration');
  if (has('(#Month|#WeekDay|#Date)') || /\b(?:19|20)\d\d\b|\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b/i.test(text))
    types.add('date');
  if (has('#Value') || /\d/.test(text)) types.add('quantity');
  if (has('#Person') || has('#FirstName') || has('#Organization')) types.add('person');
  if (has('(#Place|#City|#Country|#Address)')) types.add('place');
  if (REASON.test(text)) types.add('reason');
  // A name: a capitalised word past the first that the language's common words do not hold ("SAP",
  // "Zendesk", "Vela Pro 2", "Riverside"), or one compromise knows as a person, place or organisation.
  if (NAMED.test(text.replace(/^\W*\S+/, '')) || has('(#Organization|#Place|#Person)')) types.add('name');
  return types;
}
