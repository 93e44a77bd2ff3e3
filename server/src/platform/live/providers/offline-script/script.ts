// Reads a scenario's Markdown script and extracts the ordered steps the persona will ask.
import nlp from 'compromise';
import { DEFAULT_QUESTIONS, scenarioKind } from './defaults.ts';
import { whoLeads } from './lead.ts';
import { countWords, normalize, sentences, stripInlineMarkdown, thirdToSecondPerson } from './text.ts';

export type ScriptStepOrigin = 'question' | 'instruction' | 'topic' | 'default';

export interface ScriptStep {
  /** The exact sentence the persona asks; the engine later recognises it in its own earlier turns. */
  question: string;
  /** The script text the step came from (after Markdown is stripped). */
  source: string;
  origin: ScriptStepOrigin;
  /** The heading the step was found under, if any. */
  section: string | null;
}

/** A script longer than this is truncated: a spoken session cannot walk more steps usefully. */
export const MAX_STEPS = 30;

type SectionKind = 'question' | 'rule' | 'neutral';

interface Line {
  kind: 'heading' | 'item' | 'text';
  text: string;
  indent: number;
  section: string | null;
  sectionKind: SectionKind;
}

interface Candidate {
  question: string;
  source: string;
  origin: Exclude<ScriptStepOrigin, 'default'>;
  section: string | null;
}

const QUESTION_SECTION =
  /\b(questions?|flow|script|agenda|steps?|topics?|outline|structure|discussion|conversation|plan|stages?|phases?|prompts?|checklist|sequence|talking points|walkthrough|exercises?|activities|interview|session)\b/i;
const STRONG_RULE_SECTION =
  /\b(rules?|guardrails?|guidelines?|avoid|don'?ts|do not|never|evaluation|evaluate|scoring|rubric|criteria|constraints?|success)\b/i;
const RULE_SECTION =
  /\b(tone|style|voice|persona|character|personality|background|context|about|goals?|objectives?|notes?|behaviou?r|instructions?|setting|overview|summary|your role|dos)\b/i;

function classifySection(title: string): SectionKind {
  // "About the role (answer the candidate's questions from this)": the aside does not make it a question section.
  const heading = title.replace(/\([^)]*\)/g, '');
  if (STRONG_RULE_SECTION.test(heading)) return 'rule';
  if (QUESTION_SECTION.test(heading)) return 'question';
  if (RULE_SECTION.test(heading)) return 'rule';
  return 'neutral';
}

function readLines(prompt: string): Line[] {
  const lines: Line[] = [];
  const stack: { level: number; title: string; kind: SectionKind }[] = [];
  let fenced = false;
  const current = () => stack[stack.length - 1];
  const push = (level: number, title: string) => {
    while (stack.length > 0 && current().level >= level) stack.pop();
    const own = classifySection(title);
    stack.push({ level, title, kind: own === 'neutral' ? (current()?.kind ?? 'neutral') : own });
  };
  for (const raw of prompt.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/.test(raw) || /^\s*\|/.test(raw)) continue;
    const line = raw.replace(/^\s*(>\s?)+/, '');
    const heading = /^(#{1,6})\s+(.*?)[\s#]*$/.exec(line);
    // "**Questions:**" or "Questions:" alone on a line acts as a heading too.
    const item = /^(\s*)(?:[-*+•]|\d{1,3}[.)]|[a-zA-Z][.)])\s+(.*)$/.exec(line);
    const pseudo = item ? null : /^\s*(?:\*\*|__)?([^*_:?]{2,60}):?(?:\*\*|__)?:?\s*$/.exec(line);
    if (heading) {
      const title = stripInlineMarkdown(heading[2]);
      push(heading[1].length, title);
      lines.push({ kind: 'heading', text: title, indent: 0, section: title, sectionKind: current().kind });
      continue;
    }
    if (pseudo && /:\s*(\*\*|__)?\s*$/.test(line) && countWords(pseudo[1]) <= 6) {
      push(7, stripInlineMarkdown(pseudo[1]));
      continue;
    }
    const text = stripInlineMarkdown(item ? item[2] : line);
    if (text.length === 0) continue;
    lines.push({
      kind: item ? 'item' : 'text',
      text,
      indent: item ? item[1].replace(/\t/g, '    ').length : 0,
      section: current()?.title ?? null,
      sectionKind: current()?.kind ?? 'neutral',
    });
  }
  return lines;
}

const LABEL = /^(?:(?:step|question|q|stage|phase|part|section)\s*\d+\s*[:.)\-–—]\s*|[^:?"“]{1,40}:\s+)/i;
const QUOTED_QUESTION = /["“]([^"”]{3,}?\?)\s*["”]/g;
const WH = /^(whether|if|what|how|why|when|where|which|who|whom|whose)\b/i;
const NON_TOPIC =
  /^(warm[- ]?up|intro(duction)?s?|introduce|wrap[- ]?up|clos(e|ing)|greet(ing)?s?|welcome|small talk|farewell|goodbye|recap|summar(y|i[sz]e)|thank|be|keep|stay|remain|use|don'?t|do not|never|always|avoid|let|say|tell|end|finish|start|begin|open|note|remember|make sure|ensure|respond|reply|answer|speak|listen|wait|pause|smile|act|play|pretend|you are|you're)\b/i;

const GERUNDS: Record<string, string> = {
  asking: 'ask',
  exploring: 'explore',
  probing: 'probe',
  discussing: 'discuss',
  reviewing: 'review',
  covering: 'cover',
  having: 'have',
  inviting: 'invite',
  checking: 'check',
  confirming: 'confirm',
  finding: 'find',
  understanding: 'understand',
  digging: 'dig',
  talking: 'talk',
  going: 'go',
  getting: 'get',
  learning: 'learn',
  clarifying: 'clarify',
  identifying: 'identify',
  verifying: 'verify',
};

const INQUIRY =
  /^(?:probe|explore|discuss|cover|dig (?:into|deeper into)|drill (?:into|down (?:into|on))|delve into|talk about|go over|review|investigate|learn(?: about)?|find out(?: about)?|understand(?: more about)?|uncover|identify|gather|collect|assess|evaluate|gauge|establish|determine|inquire about|enquire about|get (?:a sense|an idea|an understanding|details) (?:of|on|about)|elicit|surface|capture|map out|clarify|check(?: on)?|touch on|see|discover)\s+(.+)$/i;

function finishQuestion(text: string): string {
  const trimmed = text
    .replace(/\s*\((?:e\.g\.|i\.e\.|for example|optional)[^)]*\)/gi, '')
    .replace(/[\s.,;:!?]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `${trimmed[0].toUpperCase()}${trimmed.slice(1)}?`;
}

function lowerFirst(text: string): string {
  const first = text.split(/\s/, 1)[0];
  // Keep acronyms and words with inner capitals (AWS, GraphQL, iOS) as written.
  if (/^[A-Z][a-z'’-]*$/.test(first)) return text[0].toLowerCase() + text.slice(1);
  return text;
}

function tellMeAbout(rest: string): string {
  const object = rest.replace(/^(?:about|on|into|in|of)\s+/i, '');
  return WH.test(object)
    ? finishQuestion(`Can you tell me ${object}`)
    : finishQuestion(`Can you tell me about ${object}`);
}

/** "Ask about X" → "Can you tell me about X?"; null when the sentence is not an inquiry instruction. */
export function instructionToQuestion(sentence: string): string | null {
  let text = sentence
    .trim()
    .replace(
      /^(?:then|next|first|firstly|second|secondly|finally|lastly|also|briefly|politely|gently|now|and)\b,?\s*/i,
      '',
    )
    .replace(/[.!;:]+$/, '');
  const lead =
    /^(?:start|begin|open|kick off|close|end|finish|wrap up|continue|move on)(?: off)?(?: the (?:call|conversation|session|meeting|interview))?(?: by| with)? (\w+ing)\b(.*)$/i.exec(
      text,
    );
  if (lead) {
    const verb = GERUNDS[lead[1].toLowerCase()];
    if (!verb) return null;
    text = `${verb}${lead[2]}`;
  }
  text = thirdToSecondPerson(text);
  let m = /^ask(?: you)?\s*[:\-–—]\s*(.+)$/i.exec(text);
  if (m) return finishQuestion(m[1]);
  m = /^ask(?: you)? to (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you ${m[1].replace(/^walk through\b/i, 'walk me through')}`);
  m = /^ask(?: you)? for (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you share ${m[1]}`);
  m = /^ask(?: you)? ((?:whether|if|what|how|why|when|where|which|who|whom|whose)\b.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you tell me ${m[1]}`);
  m = /^ask(?: you)? (.+)$/i.exec(text);
  if (m) return tellMeAbout(m[1]);
  m = /^(?:confirm|verify|double-check) (.+)$/i.exec(text);
  if (m) return finishQuestion(`Can you confirm ${m[1]}`);
  // "Let them lead", "Let them steer the session": who leads, not a question to ask.
  m =
    /^(?:have|let) you (?!(?:lead|steer|drive|run|take the lead|do (?:the|most of the) talking)\b)(.+)$/i.exec(
      text,
    );
  if (m) return finishQuestion(`Could you ${m[1].replace(/^walk through\b/i, 'walk me through')}`);
  m = /^(?:get|invite|encourage|prompt|challenge|push|nudge) you to (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you ${m[1].replace(/^walk through\b/i, 'walk me through')}`);
  m = /^(?:request|solicit|obtain) (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you share ${m[1]}`);
  m = INQUIRY.exec(text);
  // "Probe once if an answer is vague", "Check in gently": how to ask, not what to ask about.
  if (m && !HOW_NOT_WHAT.test(m[1]) && (WH.test(m[1]) || !startsWithAdverb(m[1]))) return tellMeAbout(m[1]);
  return null;
}

const HOW_NOT_WHAT =
  /^(?:once|twice|further|deeper|more|again|if|when|whenever|unless|until|as needed|gently|politely|briefly|in|on (?:vague|weak|short|any))\b/i;

function startsWithAdverb(text: string): boolean {
  const first = nlp(text).terms().json()[0]?.terms?.[0] as { tags: string[] } | undefined;
  return Boolean(first?.tags.includes('Adverb') || first?.tags.includes('Conjunction'));
}

/** "Tell me about a time you…", "Walk me through…": already said to the participant, asked as written. */
const ASKS_AS_WRITTEN =
  /^(?:tell me|walk me through|talk me through|take me through|give me an? |show me|describe|share an? )\b/i;

/** The verb of a prose sentence that lists what to ask: "She'll ask: a, b, and c", "Rosa wants to know a, b and c". */
const ASKS_A_LIST =
  /\b(?:ask(?:s)?(?: (?:them|him|her|the (?:participant|candidate|learner|employee|agent)))?(?: about)?|walks? (?:them|him|her|the (?:participant|candidate)) through|go(?:es)? through|covers?|wants? to (?:know|hear|understand|find out)|would like to (?:know|hear)|explores?|finds? out|discuss(?:es)?)\s*:?\s+([^.;]+)$/i;

/**
 * The participant's pronouns in a listed item turned to "you" ("a project they're proud of" → "a
 * project you're proud of"); other people stay as they are ("explain it to a manager").
 */
function pronounsToSecondPerson(text: string): string {
  return text
    .replace(/\bthe (?:participant|candidate|learner|employee|trainee|interviewee)'s\b/gi, 'your')
    .replace(/\bthe (?:participant|candidate|learner|employee|trainee|interviewee)\b/gi, 'they')
    .replace(/\bthemselves\b/gi, 'yourself')
    .replace(/\btheir\b/gi, 'your')
    .replace(/\btheirs\b/gi, 'yours')
    .replace(/\bthey(?=(?:'re|'ve|'d|'ll)\b)/gi, 'you')
    .replace(/\b(?:they|them)\b/gi, 'you')
    .replace(
      /\byou (is|was|has|does)\b/gi,
      (_, verb: string) => `you ${{ is: 'are', was: 'were', has: 'have', does: 'do' }[verb.toLowerCase()]}`,
    );
}

/** "why data engineering, a project they're proud of, and how they'd explain X" → one step each. */
function listToQuestions(sentence: string): string[] {
  const m = ASKS_A_LIST.exec(sentence.replace(/[.!;]+$/, ''));
  if (!m) return [];
  // "About the role, if they ask: …" is what the participant may ask, not the persona's list.
  const before = sentence.slice(0, m.index);
  if (/\b(?:if|when|whenever|once|until|unless|should)\b/i.test(before)) return [];
  if (
    /\b(?:they|the (?:participant|candidate|rep|caller|customer|user|learner|employee))\b[^,]*$/i.test(before)
  )
    return [];
  const items = m[1]
    .split(
      /,\s*(?:and |or )?|\s+and\s+(?=(?:whether|if|what|how|why|when|where|which|who|a|an|the|one|their|his|her)\b)/i,
    )
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length < 2) return [];
  return items.map((raw) => {
    const item = pronounsToSecondPerson(lowerFirst(raw));
    if (!WH.test(item)) return tellMeAbout(item);
    // "why data engineering" has no verb: asked as it stands.
    return nlp(item).verbs().length > 0 ? finishQuestion(`Can you tell me ${item}`) : finishQuestion(item);
  });
}

function fromSentence(sentence: string, topicAllowed: boolean, hasChildren: boolean): Candidate | null {
  const text = sentence.replace(LABEL, '').trim();
  if (countWords(text) === 0) return null;
  if (ASKS_AS_WRITTEN.test(text)) {
    const asked = `${text[0].toUpperCase()}${text.slice(1).replace(/[\s.;:!]+$/, '')}`;
    return {
      question: /\?$/.test(asked) ? asked : `${asked}.`,
      source: sentence,
      origin: 'question',
      section: null,
    };
  }
  const instruction = instructionToQuestion(text);
  if (instruction) return { question: instruction, source: sentence, origin: 'instruction', section: null };
  if (text.endsWith('?'))
    return { question: finishQuestion(text), source: sentence, origin: 'question', section: null };
  if (!topicAllowed || hasChildren || sentence.trim().endsWith(':')) return null;
  if (countWords(text) > 12 || NON_TOPIC.test(text)) return null;
  const topic = thirdToSecondPerson(lowerFirst(text.replace(/[.!;:]+$/, '')));
  return { question: tellMeAbout(topic), source: sentence, origin: 'topic', section: null };
}

function fromLine(line: Line, next: Line | undefined, topicAllowed: boolean): Candidate[] {
  const quoted = [...line.text.matchAll(QUOTED_QUESTION)].map((m) => m[1].trim());
  if (quoted.length > 0) {
    return quoted.map((q) => ({
      question: finishQuestion(q),
      source: line.text,
      origin: 'question',
      section: null,
    }));
  }
  const parts = sentences(line.text);
  const hasChildren = next !== undefined && next.kind === 'item' && next.indent > line.indent;
  const single = line.kind === 'item' && parts.length === 1;
  const found: Candidate[] = [];
  for (const part of parts) {
    const listed = instructionToQuestion(part.replace(LABEL, '')) ? [] : listToQuestions(part);
    if (listed.length > 0) {
      for (const question of listed)
        found.push({ question, source: part, origin: 'instruction', section: null });
      continue;
    }
    // Only a one-sentence list item may be a bare topic ("- Salary expectations").
    const candidate = fromSentence(part, topicAllowed && single, hasChildren);
    if (candidate) found.push(candidate);
  }
  return found;
}

/**
 * Extracts the ordered steps of a Markdown script. Sections titled like rules, tone, background
 * or evaluation are skipped; when the script has question/flow/agenda sections only those are read.
 * Falls back to a default question set for the scenario type when nothing is found.
 */
export function parseScript(prompt: string | null, scenarioType: string): ScriptStep[] {
  const lines = prompt ? readLines(prompt) : [];
  const hasQuestionSections = lines.some((l) => l.sectionKind === 'question');
  const steps: ScriptStep[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length && steps.length < MAX_STEPS; i++) {
    const line = lines[i];
    if (line.sectionKind === 'rule') continue;
    if (hasQuestionSections && line.sectionKind !== 'question') continue;
    let candidates: Candidate[];
    if (line.kind === 'heading') {
      const numbered = /^(?:step|question|q|stage|phase|part)\s*\d+\s*[:.)\-–—]\s*(.+)$/i.exec(line.text);
      const text = numbered ? numbered[1] : line.text.includes('?') ? line.text : null;
      candidates = text ? fromLine({ ...line, text, kind: 'text' }, undefined, false) : [];
    } else {
      const topicAllowed = line.kind === 'item' && line.sectionKind === 'question';
      candidates = fromLine(line, lines[i + 1], topicAllowed);
    }
    for (const candidate of candidates) {
      const key = normalize(candidate.question);
      if (key.length === 0 || seen.has(key)) continue;
      seen.add(key);
      steps.push({ ...candidate, section: line.section });
      if (steps.length >= MAX_STEPS) break;
    }
  }
  if (steps.length > 0) return steps;
  const kind = scenarioKind(scenarioType);
  // An interview's or a coaching session's default questions are the asking side's: a persona cast
  // as the candidate or the coachee has none of its own to ask.
  if ((kind === 'interview' || kind === 'upskill') && whoLeads(scenarioType, prompt) === 'participant')
    return [];
  return DEFAULT_QUESTIONS[kind].map((question) => ({
    question,
    source: question,
    origin: 'default',
    section: null,
  }));
}
