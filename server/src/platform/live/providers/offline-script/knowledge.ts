// What the persona knows and may say: the facts of its scenario (background and role sections of
// the script, or its prose), its persona background, the session's note context and the memories,
// each turned into a sentence the persona can say in the first person.
import { backgroundToFirstPerson, claimGroups, secondToFirstPerson } from './first-person.ts';
import { isImperative } from './imperative.ts';
import { splitSentences } from './sentences.ts';
import { stripInlineMarkdown } from './text.ts';

export interface Fact {
  id: number;
  /** What the persona says, first person. */
  text: string;
  /** Facts of one bullet or paragraph share a group: a second fact of the same group may follow. */
  group: number;
}

export interface KnowledgeSources {
  personaName: string;
  prompt: string | null;
  background: string | null;
  noteContext: string | null;
  memories: readonly string[];
}

/** Sections that tell the persona how to behave or what to ask, not what it knows. */
const NOT_FACTS =
  /\b(?:rules?|guardrails?|guidelines?|avoid|don'?ts|evaluation|scoring|rubric|criteria|tone|style|voice|instructions?|behaviou?r|questions?|flow|agenda|steps?|outline|checklist|script|goals?|objectives?)\b/i;
/** A sentence that instructs the persona rather than stating a fact. */
const INSTRUCTION =
  /^(?:be|ask|answer|keep|stay|never|don'?t|do not|avoid|use|let|make|share|build|bring|if|when|once|before|after|finish|reflect|offer|speak|respond|try|remember|follow|give|play|act|pretend|start|open|end|greet|introduce|push|steer|challenge|mention|only|always|please)\b|\b(?:you|they) (?:should|must|answer|may|react|bring|lead|drive|stay)\b|\b(?:do not|don't) (?:volunteer|mention|reveal|break|list|pitch|offer|make)\b|\bin character\b|\bsimulation\b|\brole-?play\b|\b(?:participant|candidate|learner)\b(?!'s)|^they\b/i;
/** "You are busy but cooperative": the persona's manner, which its demeanor already carries. */
const MANNER = /^[Yy]ou(?:'re| are) (?!a |an |the |\w+ing\b|\d)[a-z][^A-Z\d]*$/;
/** "Be a bit skeptical, you got burned…": the instruction goes, the fact after it stays. */
const INSTRUCTION_LEAD = /^(?:be|stay|act|keep|sound)\b[^,]*,\s+(?=you\b)/i;
const LABEL = /^([A-Z][\w -]{1,30}):\s+(.+)$/;
const LABELS: Record<string, (rest: string) => string> = {
  'must have': (r) => `What the first version must do: ${r}`,
  'must haves': (r) => `What the first version must do: ${r}`,
  'nice to have': (r) => `Nice to have would be ${r}`,
  constraints: (r) => `The constraints are these: ${r}`,
  success: (r) => `We'd know it worked when ${r}`,
  'not decided yet': (r) => `That's not decided yet: ${r}`,
  users: (r) => `Who would use it: ${r}`,
};

function spoken(sentence: string): string {
  let text = sentence.trim().replace(/^[-*+•]\s+|^\d+[.)]\s+/, '');
  const label = LABEL.exec(text);
  if (label) {
    const render = LABELS[label[1].toLowerCase().replace(/-/g, ' ')];
    text = render ? render(label[2]) : text;
  }
  text = claimGroups(secondToFirstPerson(text));
  text = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function unitsOf(paragraph: string): string[] {
  return splitSentences(stripInlineMarkdown(paragraph))
    .flatMap((s) => s.split(/;\s+/))
    .map((s) => s.trim().replace(INSTRUCTION_LEAD, ''))
    .filter((s) => s.split(/\s+/).length >= 3 && !INSTRUCTION.test(s) && !MANNER.test(s) && !isImperative(s));
}

/** The paragraphs and bullets of the script that state facts (sections of rules or questions skipped). */
function factParagraphs(prompt: string): string[] {
  const out: string[] = [];
  let skipping = false;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0 && !skipping) out.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const raw of prompt.split('\n')) {
    const line = raw.trim();
    const heading = /^#{1,6}\s+(.+)$/.exec(line) ?? /^\*\*([^*]{2,60})\*\*:?$/.exec(line);
    if (heading) {
      flush();
      const title = heading[1].replace(/\([^)]*\)/g, '');
      skipping = /^#\s/.test(line) ? false : NOT_FACTS.test(title);
      continue;
    }
    if (line === '' || /^[-*+•]\s|^\d+[.)]\s/.test(line)) flush();
    if (line !== '') paragraph.push(line);
  }
  flush();
  return out;
}

export function collectFacts(sources: KnowledgeSources): Fact[] {
  const facts: Fact[] = [];
  let group = 0;
  const add = (units: string[]) => {
    group++;
    for (const text of units) facts.push({ id: facts.length, text, group });
  };
  for (const paragraph of factParagraphs(sources.prompt ?? '')) add(unitsOf(paragraph).map(spoken));
  for (const sentence of splitSentences(sources.background ?? '')) {
    const clauses = sentence
      .split(/;\s+/)
      .map((c) => spoken(backgroundToFirstPerson(c, sources.personaName)));
    add(clauses.filter((c) => c.split(/\s+/).length >= 3));
  }
  for (const paragraph of (sources.noteContext ?? '').split(/\n+/)) add(unitsOf(paragraph).map(spoken));
  for (const memory of sources.memories)
    add([`You told me last time: ${memory.trim().replace(/\.?$/, '.')}`]);
  return facts;
}

/** The session note and the memories, as the live runtime puts them into the system prompt. */
export function extrasFromSystemPrompt(system: string | null): {
  noteContext: string | null;
  memories: string[];
} {
  const section = (title: string) =>
    new RegExp(`^## ${title}\\n\\n([\\s\\S]*?)(?=\\n## |$)`, 'm').exec(system ?? '')?.[1]?.trim() ?? null;
  const remembered = section('What you remember about the participant');
  return {
    noteContext: section('Session context'),
    memories: (remembered ?? '')
      .split('\n')
      .map((line) => line.replace(/^-\s*/, '').trim())
      .filter((line) => line.length > 0),
  };
}
