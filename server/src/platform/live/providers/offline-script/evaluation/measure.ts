// Plays each scenario of the evaluation set against the engine, in one call, like
// conversations/metrics.ts (messages, `end_call` tool), and measures what customers notice.
import { spawn } from 'node:child_process';
import { repoPath } from '../../../../../core/paths.ts';
import type { ChatMessage, ReplyEvent, ToolSpec } from '../../types.ts';
import { bare, CHARACTER_BREAK, normalize, sentencesOf } from '../conversations/metrics.ts';
import { createOfflineScriptEngine } from '../engine.ts';
import type { EvaluationScenario, MechanicsKind, ScenarioKind } from './types.ts';

const END_CALL: ToolSpec = {
  type: 'function',
  function: { name: 'end_call', description: 'End the call', parameters: { type: 'object', properties: {} } },
};

/** Counts of one scenario, one kind or the total: `x` of `xOf` succeeded. */
export interface Figures {
  scenarios: number;
  facts: number;
  recalled: number;
  followUps: number;
  followUpsUnderstood: number;
  reasks: number;
  reasksAnswered: number;
  instructionLinesSpoken: number;
  repeats: number;
  closings: number;
  closingsHonoured: number;
  probes: number;
  probesInCharacter: number;
  /** Small talk, off-topic and rude turns answered in character without ending the call. */
  otherMechanics: number;
  otherMechanicsHandled: number;
  scriptTurns: number;
  scriptFollowed: number;
  acknowledgeable: number;
  acknowledged: number;
  /** Distinct sentences the persona said, and those link-grammar finds an agreement error in (scripts/grammar-check.py). */
  sentences: number;
  grammarErrors: number;
  mechanicsTurns: Record<MechanicsKind, number>;
  answerLabels: Record<'good' | 'vague' | 'off_script', number>;
}

export interface ScenarioResult {
  name: string;
  kind: ScenarioKind;
  figures: Figures;
  misses: string[];
  /** Every distinct sentence the persona said, for the grammar check. */
  spoken: string[];
}

export const emptyFigures = (): Figures => ({
  scenarios: 0,
  facts: 0,
  recalled: 0,
  followUps: 0,
  followUpsUnderstood: 0,
  reasks: 0,
  reasksAnswered: 0,
  instructionLinesSpoken: 0,
  repeats: 0,
  closings: 0,
  closingsHonoured: 0,
  probes: 0,
  probesInCharacter: 0,
  otherMechanics: 0,
  otherMechanicsHandled: 0,
  scriptTurns: 0,
  scriptFollowed: 0,
  acknowledgeable: 0,
  acknowledged: 0,
  sentences: 0,
  grammarErrors: 0,
  mechanicsTurns: { small_talk: 0, off_topic: 0, rude: 0, ai_probe: 0, closing: 0 },
  answerLabels: { good: 0, vague: 0, off_script: 0 },
});

export function addFigures(into: Figures, f: Figures): Figures {
  for (const key of Object.keys(into) as (keyof Figures)[]) {
    const a = into[key];
    const b = f[key];
    if (typeof a === 'number' && typeof b === 'number') (into[key] as number) = a + b;
    else if (typeof a === 'object' && typeof b === 'object')
      for (const k of Object.keys(a)) (a as Record<string, number>)[k] += (b as Record<string, number>)[k];
  }
  return into;
}

const STOPWORDS = new Set(
  `a an the and or but if then than that this these those to of in on at by for with from into about as is are was were be been being
  it its it's you your you're yours i i'm me my we our us they them their he him his she her hers not no don't do does did doing
  have has had having will would can could should shall may might must just so very too also any some all each every what which who
  whom when where why how there here up down out over under again once only own same such both few more most other off per via
  let them one get got make made say said tell told ask asked keep way really bit yes yeah okay ok`.split(
    /\s+/,
  ),
);
const contentWords = (text: string) =>
  bare(text)
    .split(' ')
    .filter((w) => w.length >= 3 && !STOPWORDS.has(w));

/**
 * The part of an instruction line that instructs: not what it tells the persona to say ("…and say HR
 * will call on Monday") nor the fact an aside holds back ("Two members are nervous — won't say this
 * unless asked"): saying those when the moment comes is acting on the line, not reading it out.
 */
function instructingPart(line: string): string {
  const aside = line
    .split(/\s[—–]\s/)
    .slice(1)
    .join(' ');
  if (/\b(?:unless|only if|if asked|won'?t|don'?t|never)\b/i.test(aside)) return aside;
  return line.replace(/\b(?:say|saying|tell (?:them|him|her)|mention that)\s+(?:that\s+)?.*$/i, '');
}

/** A spoken sentence that holds ≥ 60 % of an instruction line's content words (lines of ≥ 4), or a heading verbatim. */
function spokenInstruction(sentence: string, instructions: readonly string[]): string | null {
  const said = new Set(contentWords(sentence));
  const saidBare = ` ${bare(sentence)} `;
  for (const line of instructions) {
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line) ?? /^\s*\*\*([^*]+)\*\*:?\s*$/.exec(line);
    if (heading) {
      const title = bare(heading[1]);
      if (title.length > 0 && saidBare.includes(` ${title} `)) return line;
      continue;
    }
    const words = [...new Set(contentWords(instructingPart(line)))];
    if (words.length < 4) continue;
    if (words.filter((w) => said.has(w)).length / words.length >= 0.6) return line;
  }
  return null;
}

const holds = (text: string, phrase: string) => normalize(text).includes(normalize(phrase));

export async function runScenario(s: EvaluationScenario): Promise<ScenarioResult> {
  const engine = createOfflineScriptEngine(s.context);
  const messages: ChatMessage[] = [{ role: 'system', content: `You are ${s.context.personaName}.` }];
  let ended = false;
  let endedNoted = false;
  const say = async (line: string | null) => {
    // Once the call has ended nothing more is said: every later turn counts as missed.
    if (ended) return { text: '', ends: false };
    if (line !== null) messages.push({ role: 'user', content: line });
    const events: ReplyEvent[] = [];
    for await (const event of engine.reply({
      messages: [...messages],
      tools: [END_CALL],
      signal: new AbortController().signal,
    }))
      events.push(event);
    const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
    const ends = events.some((e) => e.type === 'tool_call' && e.call.function.name === 'end_call');
    messages.push({ role: 'assistant', content: text });
    return { text, ends };
  };
  const f = emptyFigures();
  f.scenarios = 1;
  const misses: string[] = [];
  const miss = (what: string, said: string, text: string, expected: string) =>
    misses.push(`${what}: "${said}" → "${text}" (expected ${expected})`);
  const laterNext = (from: number) => {
    for (const t of s.turns.slice(from + 1)) if (t.type === 'answer' && t.next !== null) return t.next;
    return null;
  };
  const stepPhrases = s.turns.flatMap((t) => (t.type === 'answer' && t.next !== null ? [t.next] : []));

  await say(null);
  for (const [index, turn] of s.turns.entries()) {
    if (ended && !endedNoted) {
      endedNoted = true;
      misses.push(`call ended early, before: "${turn.type === 'fact' ? turn.ask : turn.say}"`);
    }
    if (turn.type === 'fact') {
      const { text, ends } = await say(turn.ask);
      ended ||= ends;
      const ok = turn.expect.every((alternatives) => alternatives.some((a) => holds(text, a)));
      f.facts++;
      if (ok) f.recalled++;
      if (turn.followUp) {
        f.followUps++;
        if (ok) f.followUpsUnderstood++;
      }
      if (turn.reask) {
        f.reasks++;
        if (ok) f.reasksAnswered++;
      }
      if (!ok) {
        const tag = turn.followUp ? 'follow-up' : turn.reask ? 're-ask' : 'fact';
        miss(tag, turn.ask, text, turn.expect.map((a) => a.join(' | ')).join(' + '));
      }
    } else if (turn.type === 'mechanics') {
      const { text, ends } = await say(turn.say);
      ended ||= ends;
      f.mechanicsTurns[turn.kind]++;
      const broke = sentencesOf(text).some((sentence) => CHARACTER_BREAK.test(sentence));
      if (turn.kind === 'closing') {
        f.closings++;
        if (ends) f.closingsHonoured++;
        else miss('closing', turn.say, text, 'end_call');
      } else if (turn.kind === 'ai_probe') {
        f.probes++;
        if (!broke && !ends && text.trim().length > 0) f.probesInCharacter++;
        else miss('ai probe', turn.say, text, 'an in-character answer');
      } else {
        f.otherMechanics++;
        if (!broke && !ends && text.trim().length > 0) f.otherMechanicsHandled++;
        else miss(turn.kind, turn.say, text, 'an in-character reply that keeps the call going');
      }
    } else {
      const { text, ends } = await say(turn.say);
      ended ||= ends;
      f.scriptTurns++;
      f.answerLabels[turn.label]++;
      let ok: boolean;
      let expected: string;
      if (turn.next !== null) {
        ok = holds(text, turn.next);
        expected = turn.next;
      } else if (turn.label === 'vague') {
        const upcoming = laterNext(index);
        ok = text.trim().length > 0 && (upcoming === null || !holds(text, upcoming)) && !ends;
        expected = `a probe on the same step, not yet "${upcoming ?? ''}"`;
      } else {
        ok = !stepPhrases.some((p) => holds(text, p));
        expected = 'no further script question';
      }
      if (ok) f.scriptFollowed++;
      else miss(`script (${turn.label})`, turn.say, text, expected);
      if (turn.label !== 'off_script') {
        // Refers to something specific the participant said: one of its content words, outside the script question.
        f.acknowledgeable++;
        const own = new Set(contentWords(turn.say));
        const rest = turn.next ? bare(text).replace(bare(turn.next), ' ') : bare(text);
        const echoed = contentWords(rest).filter((w) => own.has(w));
        if (echoed.length > 0) f.acknowledged++;
        else misses.push(`acknowledgement: "${turn.say}" → "${text}"`);
      }
    }
  }
  const seen = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const sentence of sentencesOf(message.content ?? '')) {
      const line = spokenInstruction(sentence, s.instructions);
      if (line !== null) {
        f.instructionLinesSpoken++;
        misses.push(`instruction spoken: "${sentence}" (line: ${line})`);
      }
      const key = bare(sentence);
      if (key.length > 0 && seen.has(key)) {
        f.repeats++;
        misses.push(`repeated: "${sentence}"`);
      }
      seen.add(key);
    }
  }
  const spoken = [
    ...new Set(
      messages.flatMap((message) =>
        message.role === 'assistant' ? sentencesOf(message.content ?? '').map((x) => x.trim()) : [],
      ),
    ),
  ].filter((x) => x.length > 0);
  f.sentences = spoken.length;
  return { name: s.name, kind: s.kind, figures: f, misses, spoken };
}

const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

/** One row of the figures table. */
export function row(label: string, f: Figures, grammarChecked = true): string {
  return [
    label.padEnd(14),
    `recall ${f.recalled}/${f.facts} (${pct(f.recalled, f.facts)})`,
    `instr ${f.instructionLinesSpoken}`,
    `repeats ${f.repeats}`,
    `closings ${f.closingsHonoured}/${f.closings} (${pct(f.closingsHonoured, f.closings)})`,
    `probes ${f.probesInCharacter}/${f.probes} (${pct(f.probesInCharacter, f.probes)})`,
    `other mech ${f.otherMechanicsHandled}/${f.otherMechanics}`,
    `follow-ups ${f.followUpsUnderstood}/${f.followUps} (${pct(f.followUpsUnderstood, f.followUps)})`,
    `re-asks ${f.reasksAnswered}/${f.reasks} (${pct(f.reasksAnswered, f.reasks)})`,
    `script ${f.scriptFollowed}/${f.scriptTurns} (${pct(f.scriptFollowed, f.scriptTurns)})`,
    `ack ${f.acknowledged}/${f.acknowledgeable} (${pct(f.acknowledged, f.acknowledgeable)})`,
    grammarChecked ? `grammar ${f.grammarErrors}/${f.sentences}` : 'grammar –',
  ].join('  ');
}

export interface Evaluation {
  results: ScenarioResult[];
  byKind: Map<ScenarioKind, Figures>;
  total: Figures;
  grammar: GrammarCheck;
}

export const GRAMMAR_PYTHON = '/usr/bin/python3';
export const GRAMMAR_SCRIPT = repoPath('scripts', 'grammar-check.py');
export const GRAMMAR_INSTALL_HINT =
  'bash scripts/ensure-grammar.sh (apt-get install python3-link-grammar link-grammar-dictionaries-en)';

/** One agreement error: the sentence, its clause, and the one-word change that lets link-grammar link it. */
export interface GrammarError {
  sentence: string;
  clause: string;
  fix: string;
  nulls: number;
  nullsFixed: number;
}

export type GrammarCheck =
  | {
      checked: true;
      errors: GrammarError[];
      /** Sentences link-grammar does not link completely but no agreement fix helps: not errors. */
      unparsed: string[];
    }
  | { checked: false; reason: string };

/**
 * Checks sentences with link-grammar in one Python process (scripts/grammar-check.py). Resolves
 * `{ checked: false }` with the reason when /usr/bin/python3 or its link-grammar binding is missing.
 */
export function checkGrammar(sentences: readonly string[]): Promise<GrammarCheck> {
  return new Promise((resolve) => {
    const child = spawn(GRAMMAR_PYTHON, [GRAMMAR_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => resolve({ checked: false, reason: `${GRAMMAR_PYTHON}: ${error.message}` }));
    child.on('close', (code) => {
      if (code !== 0) {
        const missing = /No module named '?linkgrammar|LG_DictionaryError/.test(stderr);
        const last = stderr.trim().split('\n').at(-1) ?? '';
        resolve({
          checked: false,
          reason: missing
            ? `link-grammar is not installed (${GRAMMAR_INSTALL_HINT})`
            : `grammar check failed: ${last}`,
        });
        return;
      }
      try {
        const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
          errors: GrammarError[];
          unparsed: { sentence: string }[];
        };
        resolve({ checked: true, errors: report.errors, unparsed: report.unparsed.map((u) => u.sentence) });
      } catch (error) {
        resolve({ checked: false, reason: `grammar check answered no JSON: ${(error as Error).message}` });
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(sentences.map((sentence) => JSON.stringify(sentence)).join('\n'));
  });
}

export async function evaluate(scenarios: readonly EvaluationScenario[]): Promise<Evaluation> {
  const results: ScenarioResult[] = [];
  for (const s of scenarios) results.push(await runScenario(s));
  const grammar = await checkGrammar([...new Set(results.flatMap((r) => r.spoken))]);
  if (grammar.checked) {
    const bySentence = new Map(grammar.errors.map((e) => [e.sentence, e]));
    for (const r of results)
      for (const sentence of r.spoken) {
        const error = bySentence.get(sentence);
        if (!error) continue;
        r.figures.grammarErrors++;
        r.misses.push(`grammar: "${sentence}" (link-grammar links the clause as "${error.fix}")`);
      }
  }
  const byKind = new Map<ScenarioKind, Figures>();
  const total = emptyFigures();
  for (const r of results) {
    addFigures(byKind.get(r.kind) ?? byKind.set(r.kind, emptyFigures()).get(r.kind)!, r.figures);
    addFigures(total, r.figures);
  }
  return { results, byKind, total, grammar };
}
