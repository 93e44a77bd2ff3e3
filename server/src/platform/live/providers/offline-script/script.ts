// Reads a scenario's Markdown script and extracts the ordered steps the persona will ask.
import { DEFAULT_QUESTIONS, scenarioKind } from './defaults.ts';
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
  m = /^(?:have|let) you (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you ${m[1].replace(/^walk through\b/i, 'walk me through')}`);
  m = /^(?:get|invite|encourage|prompt|challenge|push|nudge) you to (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you ${m[1].replace(/^walk through\b/i, 'walk me through')}`);
  m = /^(?:request|solicit|obtain) (.+)$/i.exec(text);
  if (m) return finishQuestion(`Could you share ${m[1]}`);
  m = INQUIRY.exec(text);
  if (m) return tellMeAbout(m[1]);
  return null;
}

function fromSentence(sentence: string, topicAllowed: boolean, hasChildren: boolean): Candidate | null {
  const text = sentence.replace(LABEL, '').trim();
  if (countWords(text) === 0) return null;
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
  return DEFAULT_QUESTIONS[scenarioKind(scenarioType)].map((question) => ({
    question,
    source: question,
    origin: 'default',
    section: null,
  }));
}
