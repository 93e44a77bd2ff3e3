// What the persona knows and may say: the facts of its scenario (background and role sections of
// the script, or its prose), its persona background, the session's note context and the memories,
// each turned into a sentence the persona can say in the first person.
import nlp from 'compromise';
import { indexTerms } from './concepts.ts';
import { hasEmbeddings, rankOf } from './embeddings.ts';
import {
  backgroundToFirstPerson,
  claimGroups,
  participantToYou,
  secondToFirstPerson,
  withPersonaSubject,
} from './first-person.ts';
import { isImperative } from './imperative.ts';
import { splitRunOn } from './run-on.ts';
import { splitSentences } from './sentences.ts';
import { escapeRegExp, stripInlineMarkdown } from './text.ts';
import { personaPronoun, type ThirdPerson, thirdToFirstPerson } from './third-person.ts';

export interface Fact {
  id: number;
  /** What the persona says, first person. */
  text: string;
  /** Facts of one bullet or paragraph share a group: a second fact of the same group may follow. */
  group: number;
  /**
   * The text matched against questions: without the persona's own name, which a question only uses
   * to address the persona ("what is your background, Maya?").
   */
  matchText?: string;
  /** Words around the fact that tell when it answers (its heading, the clause it leans on): they count less than its own. */
  cue?: string;
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
  /\b(?:rules?|guardrails?|guidelines?|avoid|don'?ts|evaluation|scoring|rubric|criteria|tone|style|voice|instructions?|behaviou?r|questions?|flow|agenda|steps?|outline|checklist|script|goals?|objectives?|play(?:ing)?|personality|demeanou?r|manner|attitude|how to)\b/i;
/** A sentence that instructs the persona rather than stating a fact. */
// Words that often open a noun phrase ("Push notifications get 3%", "Start date: 1 March", "Open
// rate is 11%", "End users…", "Build times…") are left to the grammar (isImperative).
const INSTRUCTION =
  /^(?:be|ask|answer|keep|stay|never|don'?t|do not|avoid|use|let|make|share|bring|if|when|once|before|after|finish|reflect|offer|speak|respond|try|remember|follow|give|play|act|pretend|greet|introduce|steer|challenge|mention|only|always|please)\b|\b(?:you|they) (?:should|must|answer|may|react|bring|lead|drive|stay)\b|\b(?:do not|don't) (?:volunteer|mention|reveal|break|list|pitch|offer|make)\b|\bin character\b|\bsimulation\b|\brole-?play\b|^they(?:'ll| will| should| may| might| must| can| need| are going to)\b/i;
/** "She calms down if the participant takes ownership": how to react to the participant is an instruction. */
const REACTS_TO_PARTICIPANT =
  /\b(?:participant|candidate|learner)\b.*\b(?:if|when|unless|once|until|whether)\b|\b(?:if|when|unless|once|until|whether)\b.*\b(?:participant|candidate|learner)\b|\b(?:participant|candidate|learner) (?:should|must|will|needs to|has to|is (?:practi[sc]ing|learning|training|being))\b/i;
/** "You are busy but cooperative": the persona's manner, which its demeanor already carries. */
const MANNER = /^[Yy]ou(?:'re| are) (?!a |an |the |\w+ing\b|\d)[a-z][^A-Z\d]*$/;
/** Sentence ends the platform's segmenter misses in unpunctuated typing ("…euros. they offered…"). */
const BULLET = /^[-*+•]\s+|^\d+[.)]\s+/;
const LOWERCASE_SENTENCE = /(?<=[.!?])\s+(?=[\p{Ll}\d])/u;
/** Those ends, outside a parenthesis ("Customers ~300 (indep. grocers, 2 hospital kitchens)" is one). */
function splitAtLowercaseSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(text[i])) {
      const end = LOWERCASE_SENTENCE.exec(text.slice(i - 1, i + 2));
      if (end && /[.!?]/.test(text[i - 1] ?? '')) {
        out.push(text.slice(start, i));
        start = i + 1;
      }
    }
  }
  out.push(text.slice(start));
  return out.map((piece) => piece.trim()).filter((piece) => piece.length > 0);
}
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
  role: (r) => `I'm ${r}`,
  persona: (r) => `I'm ${r}`,
  character: (r) => `I'm ${r}`,
};

/** How the scenario speaks of the persona: to it ("You run…"), about it ("Priya runs…", "She has…"), or both. */
interface Voice {
  addressed: boolean;
  about: ThirdPerson;
}

/** "You are Linda", "you're denise", a line opening with "You": the scenario speaks to the persona. */
const ADDRESSED = /\byou(?:'re| are)\b|(?:^|[.!?\n]\s*(?:[-*+•]|\d+[.)])?\s*)you\b/i;

function voiceOf(sources: KnowledgeSources): Voice {
  const text = `${sources.prompt ?? ''}\n${sources.background ?? ''}`;
  const name = sources.personaName.trim();
  const addressed = ADDRESSED.test(sources.prompt ?? '');
  // Spoken to ("You are Nkechi… a nurse who… her ward"), "she" is someone else; only the name is the persona.
  return {
    addressed,
    about: { names: name ? [name] : [], pronoun: addressed ? null : personaPronoun(text) },
  };
}

function spoken(sentence: string, voice: Voice): string {
  let text = sentence.trim().replace(/^[-*+•]\s+|^\d+[.)]\s+/, '');
  const label = LABEL.exec(text);
  if (label) {
    const render = LABELS[label[1].toLowerCase().replace(/-/g, ' ')];
    text = render ? render(label[2]) : text;
  }
  text = thirdToFirstPerson(text, voice.about);
  text = claimGroups(participantToYou(voice.addressed ? secondToFirstPerson(text) : text));
  text = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** "(the participant works there)": who the participant is is setup, not something the persona says. */
const ABOUT_PARTICIPANT = /\s*\([^()]*\b(?:participant|candidate|learner)\b[^()]*\)/gi;

/** "The participant is the HR director…", "Brainstorming with the participant…", "You're interviewing the participant…": the setting, not a fact to tell. */
const SETUP =
  /^(?:(?:the )?(?:participant|candidate|learner)\b|\w+ing with the (?:participant|candidate|learner)\b|(?:you(?:'re| are)|she(?:'s| is)|he(?:'s| is)) \w+ing the (?:participant|candidate|learner)\b)/i;
/** Unless the setup line also tells a figure of the persona's own ("…the SaaS you've used for 4 years"). */
const OWN_CLAUSE = /\b(?:you(?:'ve|'re|'d|'ll)?|your|she|her|he|his)\b/i;

/** "Tone: direct, dry humour", "Behav: practical, bit impatient": a label that says how to come across. */
const MANNER_LABEL =
  /^(?:tone|style|behaviou?r|behav|manner|demeanou?r|personality|attitude|mood|approach)\s*:/i;
/** "She calms down if someone actually listens", "She will ask for the pen test if they claim to be secure": how the persona reacts to whoever it talks to. */
const REACTS_TO_SOMEONE =
  /^(?:(?:she|he|you|they)(?:'s|'re| is| are| will|'ll)?|[\p{Lu}][\p{L}'-]+(?: will|'ll)?) (?:\w+ly )?(?:gets?|becomes?|calms?|warms?|opens?|softens?|relax(?:es)?|loosens?|stays?|turns?|goes|go|grows?|asks?|push(?:es)?|challenges?|probes?|press(?:es)?|demands?)\b[^.]*\b(?:if|when|once|unless|until|as soon as)\s+(?:someone|anyone|somebody|people|they|the other|the (?:rep|agent|caller|buyer|seller|interviewer|coach|manager))\b/iu;
/** "He only admits point 8 if the manager asks…", "calms down if given a date": what the persona does on a condition. */
const ON_CONDITION =
  /^(?:she|he|you|[\p{Lu}][\p{L}'-]+) only (?:admits?|mentions?|reveals?|says?|tells?|shares?|brings? (?:it|this|that) up|concedes?|agrees?)\b.*\b(?:if|when|once|unless)\b|^(?:calms?|softens?|warms?|opens?) (?:down |up )?(?:if|when|once) (?:given|offered|shown|told|asked)\b/iu;
/** "She shouldn't mention the £225 figure…": what the persona must not do. */
const MUST_NOT =
  /^(?:she|he|you|they|[\p{Lu}][\p{L}'-]+) (?:shouldn'?t|should not|must not|mustn'?t|must never|should never|is not to|isn'?t to)\b/iu;

/**
 * An order in so many words, as a clause after a comma carries one ("…, mention this early"); not a
 * condition ("…, if they ask: the team is 7 engineers") nor the fact's own verb ("…but only delivers
 * on weekdays", "…must integrate with Dentrix, and meet HIPAA requirements"): after a comma a
 * base-form verb is as often the fact's, so the verbs that tell a persona how to play are named.
 */
const orders = (s: string) => MUST_NOT.test(s) || ORDER.test(s);
const ORDER =
  /^(?:don'?t|do not)\s+\w+|^(?:(?:only|always|never|just)\s+)?(?:mention|bring (?:it|this|that|them|up)|say|tell (?:them|him|her|the)|reveal|volunteer|share|admit|disclose|act|be|sound|keep|stay|avoid|push back|concede|play|pretend|answer|respond|reply|let (?:them|him|her|the))\b/i;

const instructs = (s: string) =>
  INSTRUCTION.test(s) ||
  MANNER_LABEL.test(s) ||
  REACTS_TO_SOMEONE.test(s) ||
  ON_CONDITION.test(s) ||
  MUST_NOT.test(s) ||
  REACTS_TO_PARTICIPANT.test(s) ||
  (SETUP.test(s) && !(OWN_CLAUSE.test(s.replace(SETUP, '')) && /\d/.test(s))) ||
  MANNER.test(s) ||
  isImperative(s) ||
  isManner(s);

/** "She's practical, a bit tired…", "Firm, numbers-driven, no small talk": how the persona comes across. */
function isManner(sentence: string): boolean {
  // "Amara is open and reflective…": a person's name as the subject describes them as "she is" does.
  const named = NAMED_SUBJECT.exec(sentence);
  const subject = named && isPersonsName(named[1]) ? named[0] : DESCRIBED.exec(sentence)?.[0];
  const doc = nlp(subject ? sentence.slice(subject.length) : sentence);
  const first = doc.terms().json()[0]?.terms?.[0] as { tags: string[] } | undefined;
  const opensWithQuality = Boolean(first?.tags.includes('Adjective'));
  const described = subject !== undefined;
  // A number or a label makes it a fact: "Early beta: 1,800 students", "…that takes 9 months".
  const verb = doc.match('#Verb').not('(#Participle|#Hyphenated)').found;
  return opensWithQuality && !/\d|:/.test(sentence) && (described || !verb);
}
const DESCRIBED = /^(?:(?:she|he|you)(?:'s|'re| is| are)|i'm|i am)\s+/i;
const NAMED_SUBJECT = /^(\p{Lu}[\p{L}'-]+) (?:is|'s)\s+/u;
/** Beyond this frequency rank a capitalised word opening a sentence is most likely a name ("Amara"), not "Budget". */
const RARE_RANK = 15_000;
/** "Amara", "Grace": a word compromise knows as a person's name, or a rare one. */
function isPersonsName(word: string): boolean {
  const tags = (nlp(word).terms().json()[0]?.terms?.[0]?.tags ?? []) as string[];
  if (tags.includes('Person') || tags.includes('FirstName')) return true;
  return hasEmbeddings() && (rankOf(word) ?? Number.POSITIVE_INFINITY) > RARE_RANK;
}
/** "…nervous about their jobs — won't say this unless asked": an aside that instructs goes, the fact stays. */
const ASIDE_INSTRUCTS =
  /\b(?:unless|only if|if asked|when asked|won'?t (?:say|mention|admit)|don'?t (?:say|mention))\b/i;

/** Where an aside may start: a dash, a comma, or a "but" that opens an order. */
const ASIDE_BREAK =
  /(\s[—–-]\s|,\s+|\s+(?=but\s+(?:don'?t|do not|never|only|always|be|act|mention|bring|keep|stay|say|tell|avoid)\b))/i;

/** A unit of the scenario the persona may say, and the words that tell when it answers. */
interface Unit {
  text: string;
  /** Words of the instruction around it ("if asked how the team feels"), matched with the text. */
  cue?: string;
}

/** "…their jobs — won't say this unless asked how the team feels": the fact stays, the condition cues it. */
function withoutInstructingAsides(said: string): Unit | null {
  // "…29.5 cents (never say this number)": a parenthesis that instructs is an aside like one after a dash.
  const bracketed: string[] = [];
  const sentence = said
    .replace(/\s*\(([^()]+)\)/g, (whole, inner: string) => {
      if (!(ASIDE_INSTRUCTS.test(inner) || WITHHOLDS_FIGURE.test(inner))) return whole;
      bracketed.push(inner);
      return '';
    })
    .trim();
  // Asides after a dash; and after a comma or a "but", an order ("…, mention this as a hard no-go
  // early", "…but don't say a number unless pushed"), where a condition alone ("…, but only if they
  // apologise") belongs to the fact.
  // A sentence that is itself an order ("At the end, tell them Nina will follow up") is read whole.
  const pieces = isImperative(sentence) ? [sentence] : sentence.split(ASIDE_BREAK);
  const parts = [pieces[0]];
  const asides: string[] = [...bracketed];
  for (let i = 1; i < pieces.length; i += 2) {
    const [separator, part] = [pieces[i], pieces[i + 1] ?? ''];
    // A dash (— or –) sets off an aside; a hyphen between spaces is as often the sentence's own
    // punctuation ("…4,000 records - she's cautious since then"), so only an order or a condition goes.
    const order = part.replace(/^(?:but|and|so)\s+/i, '');
    const setOff = /[—–-]/.test(separator);
    const dashed = /[—–]/.test(separator);
    const conditionOrOrder = ASIDE_INSTRUCTS.test(part) || WITHHOLDS_FIGURE.test(part);
    const aside = dashed
      ? conditionOrOrder || instructs(part)
      : (setOff && conditionOrOrder) || orders(order);
    if (aside) asides.push(order);
    else parts.push(separator, part);
  }
  if (asides.length === 0) return { text: sentence };
  const kept = parts.join('');
  // "…Spendwise, who quoted £38,000 — don't reveal the exact quote": the figure is held back, the rest is said.
  const withheld = asides.some((a) => WITHHOLDS_FIGURE.test(a))
    ? kept
        .split(/,\s+/)
        .filter((clause) => !/\d/.test(clause))
        .join(', ')
    : kept;
  if (withheld.split(/\s+/).length < 3) return null;
  return { text: withheld, cue: asides.join(' ') };
}

/**
 * "…Spendwise, who quoted £38,000 — don't reveal the exact quote": asked for it, the persona declines
 * in its own words ("I'd rather not reveal the exact quote."), found by what the figure was about.
 */
function refusalOf(sentence: string): Unit | null {
  const aside =
    /(?:\s[—–-]\s|\(|,?\s+but\s+)\s*(?:but\s+)?(?:don'?t|do not|never|won'?t)\s+(reveal|say|mention|give|share|disclose)\s+((?:the|this|that|your|my|its|their|a|an|any)\s+[^,;()—–]*?(?:quote|number|figure|price|amount|rate|cost|offer))\b/i.exec(
      sentence,
    );
  if (!aside) return null;
  const what = aside[2].replace(/^this\b/i, 'that').replace(/^your\b/i, 'my');
  // What the figure was about, without the figure and the words that only join ("who quoted £38,000").
  const about = sentence
    .slice(0, aside.index)
    .replace(/[\d£$€.,%]+|\b(?:who|which|that|whom|whose)\b/gi, ' ');
  return { text: `I'd rather not ${aside[1].toLowerCase()} ${what}.`, cue: about };
}

/** An aside that keeps a figure back: "don't reveal the exact quote", "never say this number". */
const WITHHOLDS_FIGURE =
  /\b(?:don'?t|do not|never|won'?t)\s+(?:reveal|say|mention|give|share|disclose)\b.*\b(?:quote|number|figure|price|amount|rate|cost|offer)\b/i;

/**
 * "If asked, say it's still being approved by the board", "At the end, tell them Nina will follow up",
 * "Close by saying you'll take any offer back on Friday": what an instruction tells the persona to say
 * is something it knows. The instruction's own words ("budget", "if asked") cue when it answers.
 */
const REPORTED =
  /\b(?<!(?:don'?t|not|never|n't)\s+)(?:say|saying|says|tell(?:ing)? (?:them|him|her|the \w+)|mention|mentioning|explain|explaining|let (?:them|him|her|the \w+) know)\s+(?:that\s+)?(.+)$/i;
const IF_ASKED = /,?\s*\b(?:if|when|once|only if) (?:asked|they ask|someone asks|the \w+ asks)\b.*$/i;

function reportedSpeech(sentence: string): Unit | null {
  const said = REPORTED.exec(sentence)?.[1]?.replace(IF_ASKED, '').replace(/[.!]$/, '').trim();
  if (
    !said ||
    said.split(/\s+/).length < 3 ||
    /^(?:something|anything|nothing|this|why|how|what|hello|goodbye|thanks|thank)\b/i.test(said)
  )
    return null;
  // A clause with a finite verb ("HR will call on Monday"), not an object ("the boiler only if…").
  const main = nlp(said.split(/\b(?:if|when|unless|only|once)\b/i)[0]);
  if (!main.has('#Verb') || main.terms().json()[0]?.terms?.[0]?.tags?.includes('Verb')) return null;
  return { text: said, cue: sentence.replace(said, ' ') };
}

/** A sentence's ";"-clauses, leaving a parenthesis whole ("(40 calls a day; target is 60)"). */
function clausesOf(sentence: string): string[] {
  const clauses: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && /\s/.test(sentence[i + 1] ?? '')) {
      clauses.push(sentence.slice(start, i));
      start = i + 1;
    }
  }
  clauses.push(sentence.slice(start));
  return clauses.map((c) => c.trim()).filter((c) => c.length > 0);
}

function unitsOf(paragraph: string): Unit[] {
  return splitSentences(stripInlineMarkdown(paragraph).replace(ABOUT_PARTICIPANT, ''))
    .flatMap(splitAtLowercaseSentences)
    .flatMap((sentence) => {
      const reported = instructs(sentence.trim().replace(BULLET, '')) ? reportedSpeech(sentence) : null;
      if (reported) return [reported];
      return (
        clausesOf(sentence)
          // "…an outage on 3 March; this is the real reason I'm looking": a clause that points back
          // says something of the one before, and is said with it.
          .reduce<string[]>((out, clause) => {
            if (out.length > 0 && /^(?:this|that|which)\b/i.test(clause))
              out[out.length - 1] += `; ${clause}`;
            else out.push(clause);
            return out;
          }, [])
          .flatMap((clause) =>
            // A piece of a run-on sentence is cued by the piece before it ("…calls in sick, and the
            // plan has to be redone by hand" answers what happens when a driver calls in sick).
            splitRunOn(clause).map((piece, i, pieces) => ({ piece, before: i > 0 ? pieces[i - 1] : null })),
          )
          .flatMap(({ piece, before }) => {
            const unit = piece.trim().replace(BULLET, '').replace(INSTRUCTION_LEAD, '');
            // The persona's own questions (a script's steps) are not facts.
            if (/\?\s*$/.test(unit)) return [];
            const found = withoutInstructingAsides(unit);
            const kept =
              found && before ? { ...found, cue: [found.cue, before].filter(Boolean).join(' ') } : found;
            // A figure held back is declined in the persona's words, also when nothing else of the fact is left.
            const refusal = refusalOf(unit);
            if (kept && kept.text.split(/\s+/).length >= 3 && !instructs(kept.text))
              return refusal ? [kept, refusal] : [kept];
            if (refusal) return [refusal];
            const inner = instructs(unit) ? reportedSpeech(unit) : null;
            return inner ? [{ ...inner, cue: `${sentence} ${inner.cue}` }] : [];
          })
      );
    });
}

/** The paragraphs and bullets of the script that state facts (sections of rules or questions skipped). */
function factParagraphs(prompt: string): { text: string; heading: string | null }[] {
  const out: { text: string; heading: string | null }[] = [];
  let skipping = false;
  let title: string | null = null;
  let paragraph: string[] = [];
  let inBullet = false;
  let afterLabel = false;
  const flush = () => {
    if (paragraph.length > 0 && !skipping) out.push({ text: paragraph.join(' '), heading: title });
    paragraph = [];
  };
  for (const raw of prompt.split('\n')) {
    const line = raw.trim();
    // A short line ending with a colon ("Background she can share:") heads what follows, like a heading.
    const heading =
      /^#{1,6}\s+(.+)$/.exec(line) ??
      /^\*\*([^*]{2,60})\*\*:?$/.exec(line) ??
      /^(?![-*+•]\s|\d+[.)]\s)([^.:!?]{2,50}):$/.exec(line);
    if (heading) {
      flush();
      title = heading[1].replace(/\([^)]*\)/g, '');
      skipping = /^#\s/.test(line) ? false : NOT_FACTS.test(title);
      continue;
    }
    const bullet = /^[-*+•]\s|^\d+[.)]\s/.test(line);
    // "Fleet: 38 vans…" on its own line under "Persona: Bev Hollis…": a labelled line is a statement
    // of its own, and so is a line after it ("Customers ~300…").
    const labelled = /^\p{Lu}[\p{L}\d &/'-]{0,30}:\s/u.test(line);
    if (labelled || (afterLabel && /^\p{Lu}/u.test(line))) flush();
    afterLabel = labelled || (afterLabel && line !== '');
    // A line after a bullet starts a new paragraph unless it is indented under it.
    if (line === '' || bullet || (inBullet && !/^\s/.test(raw))) flush();
    if (line !== '') paragraph.push(line);
    inBullet = bullet || (inBullet && /^\s/.test(raw) && line !== '');
  }
  flush();
  return out;
}

/** Facts read per scenario text: every turn of every meeting of a scenario reads the same text. */
const readFacts = new Map<string, readonly Fact[]>();
const READ_FACTS_KEPT = 500;

/** The persona's facts (read once per distinct text, then served from memory; callers must not mutate them). */
export function collectFacts(sources: KnowledgeSources): readonly Fact[] {
  const key = JSON.stringify([
    sources.personaName,
    sources.prompt,
    sources.background,
    sources.noteContext,
    sources.memories,
  ]);
  const known = readFacts.get(key);
  if (known) {
    // Most recently used last: the oldest text is dropped first.
    readFacts.delete(key);
    readFacts.set(key, known);
    return known;
  }
  const facts = readScenario(sources);
  if (readFacts.size >= READ_FACTS_KEPT) readFacts.delete(readFacts.keys().next().value as string);
  readFacts.set(key, facts);
  return facts;
}

function readScenario(sources: KnowledgeSources): Fact[] {
  const facts: Fact[] = [];
  const voice = voiceOf(sources);
  let group = 0;
  const names = sources.personaName.split(/\s+/).filter((n) => n.length > 1);
  const ownName = names.length > 0 ? new RegExp(`\\b(?:${names.map(escapeRegExp).join('|')})\\b`, 'g') : null;
  const add = (units: (string | Unit)[]) => {
    group++;
    let previous: string | null = null;
    for (const unit of units) {
      const { text, cue: ownCue } = typeof unit === 'string' ? { text: unit, cue: undefined } : unit;
      // "Each invoice is keyed by hand into SAP. Takes about 6 minutes.": a sentence without a subject
      // is about what the sentence before it spoke of.
      // "Payment terms today: 60 days; Hugo wants 90": a clause that names nothing of its own ("I want
      // 90") is about what the one before it named.
      const leans = previous !== null && (opensWithVerb(text) || namesNothing(text));
      const cue = leans ? [ownCue, previous].filter(Boolean).join(' ') : ownCue;
      previous = text;
      const own = ownName ? text.replace(ownName, ' ') : text;
      // The cue's words the fact does not hold already: "unless asked how the team feels" cues a fact
      // about "two team members" by "feels", without counting "team" twice.
      const words = new Set(own.toLowerCase().split(/\W+/));
      const cueWords = (cue ? (ownName ? cue.replace(ownName, ' ') : cue) : '')
        .split(/\s+/)
        .filter((w) => w.length > 0 && !words.has(w.toLowerCase().replace(/\W+/g, '')));
      // A self-description answers "what is your background?", "tell me about yourself".
      const matchText = SELF_DESCRIPTION.test(text) ? `${own} (background)` : own;
      facts.push({
        id: facts.length,
        text,
        group,
        ...(matchText !== text ? { matchText } : {}),
        ...(cueWords.length > 0 ? { cue: cueWords.join(' ') } : {}),
      });
    }
  };
  // Whether the sentence before was about the persona (across bullets: "- Starts 1 November" after a
  // line about the job is about the job).
  const last = { aboutPersona: true };
  // "## What you want" / "- A replacement machine": the heading tells what the facts under it answer.
  for (const { text, heading } of factParagraphs(sources.prompt ?? ''))
    add(
      aboutThePersona(
        unitsOf(text).map((u) => ({
          ...u,
          text: spoken(u.text, voice),
          cue: [u.cue, heading].filter((c): c is string => Boolean(c)).join(' ') || undefined,
        })),
        voice,
        last,
      ),
    );
  // A persona's background is always about the persona: its "she" or "he" is the persona.
  const backgroundVoice: Voice = {
    ...voice,
    about: { ...voice.about, pronoun: personaPronoun(sources.background ?? '') },
  };
  for (const sentence of splitSentences(sources.background ?? '')) {
    const clauses = clausesOf(sentence).map((c) =>
      spoken(backgroundToFirstPerson(c, sources.personaName), backgroundVoice),
    );
    add(clauses.filter((c) => c.split(/\s+/).length >= 3));
  }
  for (const paragraph of (sources.noteContext ?? '').split(/\n+/))
    add(unitsOf(paragraph).map((u) => ({ ...u, text: spoken(u.text, voice) })));
  for (const memory of sources.memories)
    add([`You told me last time: ${memory.trim().replace(/\.?$/, '.')}`]);
  return withConditionsCued(facts, sources.prompt ?? '');
}

/**
 * "Don't reveal the Lisbon job unless they ask why you're selling", "Mention the boiler only if they
 * bring up repairs": the condition tells when the facts it names answer, wherever they are written.
 */
const HELD_BACK =
  /^(?:(?:don'?t|do not|never|only)\s+)?(?:reveal|mention|say|bring up|volunteer|talk about|share|disclose)\s+(.+?)\s+(?:only\s+)?(?:unless|until|if|when)\s+(.+?)[.!]?$/i;

function withConditionsCued(facts: Fact[], prompt: string): Fact[] {
  for (const sentence of splitSentences(
    stripInlineMarkdown(prompt).replace(/^\s*(?:[-*+•]|\d+[.)])\s+/gm, ''),
  )) {
    for (const clause of sentence.split(/;\s+|,\s+(?=(?:and|but)\s)/)) {
      const held = HELD_BACK.exec(clause.trim());
      if (!held) continue;
      const named = new Set(
        held[1]
          .split(/\s+/)
          .flatMap((w) => indexTerms(w) ?? [])
          .filter((t) => !t.startsWith('~')),
      );
      if (named.size === 0) continue;
      for (const fact of facts) {
        const stems = fact.text.split(/\s+/).flatMap((w) => indexTerms(w) ?? []);
        if (stems.some((t) => named.has(t)) && !(fact.cue ?? '').includes(held[2]))
          fact.cue = [fact.cue, held[2]].filter(Boolean).join(' ');
      }
    }
  }
  return facts;
}

/**
 * "Mo is a gym member. Been a member 3 years, pays £42 a month.": in a scenario written about the
 * persona, a sentence without a subject that follows one about the persona is about it too ("I've been
 * a member…"); after "Each invoice is keyed by hand." it is about the invoice and stays as written.
 */
function aboutThePersona(units: Unit[], voice: Voice, last: { aboutPersona: boolean }): Unit[] {
  if (voice.addressed) return units;
  return units.map((unit) => {
    const said = last.aboutPersona ? withPersonaSubject(unit.text.replace(/[.!?]$/, '')) : null;
    if (said !== null) return { ...unit, text: `${said[0].toUpperCase()}${said.slice(1)}.` };
    last.aboutPersona = /^(?:I|I'm|I've|I'd|I'll|My)\b/.test(unit.text);
    return unit;
  });
}

/** "Takes about 6 minutes.": the sentence opens with its verb, its subject left to the sentence before. */
function opensWithVerb(text: string): boolean {
  const first = nlp(text).terms().json()[0]?.terms?.[0] as { tags: string[] } | undefined;
  const tags = first?.tags ?? [];
  // A finite verb ("Takes", "Replaced"); "Training time matters" opens with its subject.
  return (
    tags.includes('Verb') &&
    (tags.includes('PresentTense') || tags.includes('PastTense')) &&
    !tags.some((t) => t === 'Infinitive' || t === 'Auxiliary' || t === 'Gerund')
  );
}

/** Words that name nothing a question could ask about: the persona, wanting, having, numbers. */
const NAMES_NOTHING =
  /^(?:i|i'm|i'd|i'll|my|we|our|me|it|that|this|is|are|was|be|want|wants|wanted|need|needs|would|like|likes|have|has|had|take|takes|get|gets|at|least|most|about|around|roughly|only|a|an|the|per|and|or|of|[$£€]?[\d.,%]+\w{0,3}|cfo|ceo|boss|manager)$/i;

/** "I want 90.", "CFO wants 5.": a clause whose every word is one of those. */
function namesNothing(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .split(/\s+/);
  return words.length <= 6 && words.every((w) => NAMES_NOTHING.test(w.replace(/[,;:]$/, '')));
}

/** "I'm a former trainer…", "I spent twelve years as…", "I used to be…": the persona describing itself. */
const SELF_DESCRIPTION =
  /^I(?:'m| am) (?:a|an|the)\b|^I(?: spent| used to| have been|'ve been| worked| was)\b/;

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
