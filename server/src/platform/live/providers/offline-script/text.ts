// Small, dependency-free text helpers shared by the script parser and the reply composer.

/** Lower-case, strip punctuation and collapse spaces: the form used to recognise our own sentences. */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();
}

/** FNV-1a (32-bit). Picks phrasing variants deterministically instead of Math.random. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function pick<T>(options: readonly T[], seed: number, salt: string): T {
  return options[hashString(`${seed}:${salt}`) % options.length];
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
}

export function countWords(text: string): number {
  return words(text).length;
}

const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|approx|incl|cf)\.$/i;

/** Splits at sentence punctuation followed by a space, leaving "e.g." and "3.5" intact. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/[.!?]+["”')\]]*(?=\s|$)/g)) {
    const end = (match.index ?? 0) + match[0].length;
    if (ABBREVIATION.test(text.slice(start, end))) continue;
    out.push(text.slice(start, end));
    start = end;
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0].toUpperCase() + text.slice(1);
}

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

/** Inline Markdown removed: emphasis, code spans, links, images, HTML tags. */
export function stripInlineMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\*(\S(?:.*?\S)?)\*/g, '$1')
    .replace(/(?<!\w)_(\S(?:.*?\S)?)_(?!\w)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

export const STOPWORDS = new Set(
  (
    'a an the and or but so of to in on at by for with from as into onto about over under than then ' +
    'i me my mine myself we us our ours you your yours he him his she her they them their it its ' +
    'this that these those is am are was were be been being have has had do does did will would ' +
    'shall should can could may might must not no yes yeah yep ok okay well just really very quite ' +
    'also too some any all much many more most lot lots thing things stuff kind sort like um uh ' +
    "there here what which who whom whose when where why how i'm i've i'd i'll we're we've " +
    "it's that's don't didn't doesn't isn't wasn't actually basically honestly probably maybe " +
    'guess think mean know sure get got go going mostly pretty if because while though although'
  ).split(' '),
);

const FIRST_TO_SECOND: Record<string, string> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  we: 'you',
  us: 'you',
  our: 'your',
  ours: 'yours',
  ourselves: 'yourselves',
  "i'm": "you're",
  "i've": "you've",
  "i'd": "you'd",
  "i'll": "you'll",
  "we're": "you're",
  "we've": "you've",
  "we'd": "you'd",
  "we'll": "you'll",
  am: 'are',
};

/** "I led our migration" → "you led your migration", so the persona can echo an answer back. */
export function firstToSecondPerson(text: string): string {
  const out = text.split(/(\s+)/).map((token, index, all) => {
    const match = /^([\p{L}']+)(.*)$/u.exec(token.replace(/’/g, "'"));
    if (!match) return token;
    const [, word, rest] = match;
    const lower = word.toLowerCase();
    if (lower === 'was' && index >= 2 && /^(i|we)$/i.test(all[index - 2] ?? '')) return `were${rest}`;
    const swapped = FIRST_TO_SECOND[lower];
    return swapped ? swapped + rest : token;
  });
  return out.join('');
}

const THIRD_TO_SECOND: [RegExp, string][] = [
  [
    /\b(?:the|this|our|each|a) (?:candidate|participant|applicant|interviewee|customer|client|prospect|user|employee|learner|trainee|student|caller|buyer|person|rep|salesperson|manager|team member|stakeholder)'s\b/gi,
    'your',
  ],
  [
    /\b(?:the|this|our|each|a) (?:candidate|participant|applicant|interviewee|customer|client|prospect|user|employee|learner|trainee|student|caller|buyer|person|rep|salesperson|manager|team member|stakeholder)s?\b/gi,
    'you',
  ],
  [/\bhis or her\b|\bhis\/her\b|\bher\/his\b/gi, 'your'],
  [/\bhe or she\b|\bhe\/she\b|\bshe\/he\b|\bs\/he\b/gi, 'you'],
  [/\bthemselves\b|\bhimself or herself\b/gi, 'yourself'],
  [/\btheirs\b/gi, 'yours'],
  [/\btheir\b/gi, 'your'],
  [/\bthey're\b/gi, "you're"],
  [/\bthey've\b/gi, "you've"],
  [/\bthey'd\b/gi, "you'd"],
  [/\bthey'll\b/gi, "you'll"],
  [/\bthey\b|\bthem\b/gi, 'you'],
  [/\byou has\b/gi, 'you have'],
  [/\byou hasn't\b/gi, "you haven't"],
  [/\byou is\b/gi, 'you are'],
  [/\byou isn't\b/gi, "you aren't"],
  [/\byou was\b/gi, 'you were'],
  [/\byou wasn't\b/gi, "you weren't"],
  [/\byou does\b/gi, 'you do'],
  [/\byou doesn't\b/gi, "you don't"],
];

/** Script instructions speak about the participant in the third person; questions speak to them. */
export function thirdToSecondPerson(text: string): string {
  let out = text;
  for (const [pattern, replacement] of THIRD_TO_SECOND) out = out.replace(pattern, replacement);
  return out;
}

/** Text matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
