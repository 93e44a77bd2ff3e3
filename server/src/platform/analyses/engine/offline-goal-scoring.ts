// The offline goal evaluator: an honest, deterministic, rule-based scorer used when no language model
// is configured. It measures evidence in the participant's turns; it does not understand them.
// Documented in docs/analysis.md ("Offline evaluator"); keep the weights there in step.

import { gatherEvidence, type TranscriptEvidence, type TurnEvidence } from './evidence.ts';
import { formatOffset } from './format-offset.ts';
import { parseScoreRange } from './score-range.ts';
import { computeSpeechAnalytics } from './speech-analytics.ts';
import { clamp01, isStopWord, snippet, stem, tokenize } from './text.ts';
import type { GoalDefinition, GoalEvaluation, SpeechAnalytics, TranscriptTurn } from './types.ts';

/** Words in goal text that describe scoring rather than the skill being scored. */
export const GOAL_BOILERPLATE: ReadonlySet<string> = new Set(
  `score scores scored scoring scale scales rate rates rated rating ratings point points pts out evaluate
evaluates evaluated evaluating evaluation assess assesses assessed assessment measure measures measured
goal goals participant participants candidate candidates user users person speaker conversation call
meeting session high higher highest low lower lowest poor poorly excellent good great bad average
strong strongly weak give given award based demonstrate demonstrates demonstrated demonstrating show
shows showed showing display displays exhibit exhibits level degree extent overall full fully none
partial partially ability able use uses using e.g i.e etc`.split(/\s+/),
);

const BOILERPLATE_STEMS = new Set([...GOAL_BOILERPLATE].map(stem));
/** Goal stems that make a goal about asking questions. */
const QUESTION_GOAL_STEMS = new Set(['ask', 'quest', 'inquir', 'inquiry', 'curio', 'curious']);

export const WEIGHTS = Object.freeze({ coverage: 0.4, substance: 0.35, engagement: 0.25 });
export const MAX_SHORT_ANSWER_PENALTY = 0.15;
export const MAX_FILLER_PENALTY = 0.2;

export interface GoalKeyword {
  stem: string;
  /** The first spelling seen in the goal text. */
  word: string;
}

/** Keywords of a goal: words of name, description and instructions, minus stop words and scoring words. */
export function goalKeywords(goal: GoalDefinition): GoalKeyword[] {
  const seen = new Map<string, string>();
  for (const text of [goal.name, goal.description ?? '', goal.instructions ?? '']) {
    for (const token of tokenize(text)) {
      const word = token.norm;
      if (word.length < 3 || /\d/.test(word) || isStopWord(word) || GOAL_BOILERPLATE.has(word)) continue;
      const s = stem(word);
      if (BOILERPLATE_STEMS.has(s) || seen.has(s)) continue;
      seen.set(s, word);
    }
  }
  return [...seen].map(([s, word]) => ({ stem: s, word }));
}

interface Signals {
  coverage: number;
  substance: number;
  engagement: number;
  shortPenalty: number;
  fillerPenalty: number;
  raw: number;
  matched: GoalKeyword[];
  missing: GoalKeyword[];
  questionGoal: boolean;
}

/**
 * Scores every active goal from evidence in the participant's turns. Inactive goals are skipped.
 * Same input, same output: no randomness, no clock. `analytics` of the same turns may be passed
 * in when already computed (only counts are read, so the duration they were computed over does
 * not change the result).
 */
export function evaluateGoalsOffline(
  goals: GoalDefinition[],
  turns: TranscriptTurn[],
  analytics?: SpeechAnalytics,
): GoalEvaluation[] {
  const active = goals.filter((g) => g.active);
  if (active.length === 0) return [];
  const evidence = gatherEvidence(turns);
  analytics ??= computeSpeechAnalytics(
    turns,
    turns.reduce((max, t) => Math.max(max, t.startSeconds), 0),
  );
  return active.map((goal) => evaluateGoal(goal, evidence, analytics));
}

function evaluateGoal(
  goal: GoalDefinition,
  evidence: TranscriptEvidence,
  analytics: SpeechAnalytics,
): GoalEvaluation {
  const range = parseScoreRange(goal.instructions);
  const keywords = goalKeywords(goal);
  const signals = measure(keywords, evidence, analytics);
  const score = Math.round(range.min + signals.raw * (range.max - range.min));
  const best = bestMatchingTurn(keywords, evidence);
  const quote = best ? quoteTurn(best, keywords) : null;
  const level = levelOf(signals.raw);
  const scale = `${score} on a ${range.min}–${range.max} scale`;

  if (evidence.turns.length === 0) {
    const none = 'No participant speech was captured, so there is no evidence for this goal.';
    return {
      goal_id: goal.id,
      goal_name: goal.name,
      score,
      short_description: 'No evidence: the participant did not speak.',
      long_description: `Offline rule-based evaluation: ${scale}. ${none}`,
      feedback: none,
    };
  }

  const avg = round1(evidence.averageWords);
  const details = evidence.detailSentences.length;
  const questions = evidence.questions.length;
  const matchedWords = signals.matched.map((k) => k.word);
  const evidenceSentence = quote
    ? `Best matching answer (${formatOffset(quote.startSeconds)}): "${quote.text}"`
    : `No participant answer used this goal's terms${keywords.length > 0 ? ` (${listWords(keywords.slice(0, 5))})` : ''}.`;

  const penalties: string[] = [];
  if (signals.shortPenalty > 0) {
    penalties.push(`${evidence.shortTurns} of ${evidence.turns.length} answers under 5 words`);
  }
  if (signals.fillerPenalty > 0) {
    penalties.push(
      `${analytics.filler_words.total + analytics.weak_words.total} filler and hedge words out of ${evidence.wordCount}`,
    );
  }

  const long = [
    `Offline rule-based evaluation: ${scale}.`,
    `Goal terms used: ${matchedWords.length > 0 ? listWords(signals.matched) : 'none'} (${signals.matched.length} of ${keywords.length}).`,
    `Substance: ${avg} words per answer on average; ${details} sentence${plural(details)} with concrete details (numbers, examples, reasons or results).`,
    `Engagement: ${evidence.substantiveTurns} substantive answer${plural(evidence.substantiveTurns)}, ${questions} question${plural(questions)} asked.`,
    penalties.length > 0 ? `Penalties: ${penalties.join('; ')}.` : 'No penalties.',
    evidenceSentence,
  ].join(' ');

  const tips: string[] = [];
  if (signals.coverage < 0.5 && signals.raw < 0.75 && signals.missing.length > 0) {
    tips.push(
      `Address "${goal.name}" more directly, for example by talking about ${listWords(signals.missing.slice(0, 3))}.`,
    );
  }
  if (signals.questionGoal && questions < 3) {
    tips.push(`Ask more questions of your own (${questions} asked).`);
  }
  if (details < 4) {
    tips.push(
      'Back answers with concrete details: numbers, a specific example, the reason behind a decision, the result.',
    );
  }
  if (evidence.averageWords < 19) {
    tips.push(`Give fuller answers; the average answer was ${avg} words.`);
  }
  if (signals.fillerPenalty > 0) {
    const top = [...analytics.filler_words.items, ...analytics.weak_words.items]
      .sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .slice(0, 3)
      .map((i) => `"${i.text}"`);
    tips.push(`Cut fillers and hedges such as ${top.join(', ')}.`);
  }
  if (tips.length === 0) tips.push('Keep it up: answers were on topic, specific and well supported.');
  const feedback = [
    quote
      ? `Strongest evidence (${formatOffset(quote.startSeconds)}): "${quote.text}"`
      : "No answer touched on this goal's terms directly.",
    ...tips,
  ].join(' ');

  return {
    goal_id: goal.id,
    goal_name: goal.name,
    score,
    short_description: `${level} evidence: ${signals.matched.length} of ${keywords.length} goal terms used, ${evidence.substantiveTurns} substantive answer${plural(evidence.substantiveTurns)}, ${details} concrete detail${plural(details)}.`,
    long_description: long,
    feedback,
  };
}

function measure(keywords: GoalKeyword[], evidence: TranscriptEvidence, analytics: SpeechAnalytics): Signals {
  const spoken = new Set<string>();
  for (const turn of evidence.turns) for (const s of turn.stems) spoken.add(s);
  const matched = keywords.filter((k) => spoken.has(k.stem));
  const missing = keywords.filter((k) => !spoken.has(k.stem));
  const questions = evidence.questions.length;
  const questionGoal = keywords.some((k) => QUESTION_GOAL_STEMS.has(k.stem));

  // Coverage: share of goal terms used, full marks at half the terms (at most 6 needed).
  const needed = Math.min(6, Math.max(1, Math.ceil(keywords.length / 2)));
  let coverage = keywords.length === 0 ? 0 : clamp01(matched.length / needed);
  if (questionGoal) coverage = Math.max(coverage, clamp01(questions / 3));

  // Substance: answer length (5 words → 0, 40+ → 1) and sentences with concrete details (4+ → 1).
  const length = clamp01((evidence.averageWords - 5) / 35);
  const details = clamp01(evidence.detailSentences.length / 4);
  const substance = 0.5 * length + 0.5 * details;

  // Engagement: substantive answers (5+ → 1) and questions asked (3+ → 1).
  const engagement = 0.7 * clamp01(evidence.substantiveTurns / 5) + 0.3 * clamp01(questions / 3);

  // Penalties: very short answers, and filler + hedge words above 3% of all words (full at 15%).
  const turns = evidence.turns.length;
  const shortPenalty = turns > 0 ? MAX_SHORT_ANSWER_PENALTY * (evidence.shortTurns / turns) : 0;
  const fillerRate =
    evidence.wordCount > 0
      ? (analytics.filler_words.total + analytics.weak_words.total) / evidence.wordCount
      : 0;
  const fillerPenalty = MAX_FILLER_PENALTY * clamp01((fillerRate - 0.03) / 0.12);

  const raw =
    turns === 0
      ? 0
      : clamp01(
          WEIGHTS.coverage * coverage +
            WEIGHTS.substance * substance +
            WEIGHTS.engagement * engagement -
            shortPenalty -
            fillerPenalty,
        );
  return {
    coverage,
    substance,
    engagement,
    shortPenalty,
    fillerPenalty,
    raw,
    matched,
    missing,
    questionGoal,
  };
}

/** The participant turn using the most distinct goal terms (ties: longer, then earlier). */
function bestMatchingTurn(keywords: GoalKeyword[], evidence: TranscriptEvidence): TurnEvidence | null {
  let best: TurnEvidence | null = null;
  let bestHits = 0;
  for (const turn of evidence.turns) {
    const hits = keywords.filter((k) => turn.stems.has(k.stem)).length;
    if (hits > bestHits || (hits === bestHits && hits > 0 && best !== null && turn.words > best.words)) {
      best = turn;
      bestHits = hits;
    }
  }
  return bestHits > 0 ? best : null;
}

/** A short quote from the turn's sentence with the most goal terms, centred on the first term. */
function quoteTurn(turn: TurnEvidence, keywords: GoalKeyword[]): { text: string; startSeconds: number } {
  const wanted = new Set(keywords.map((k) => k.stem));
  let chosen = turn.sentences[0];
  let chosenHits = -1;
  for (const sentence of turn.sentences) {
    const hits = new Set(sentence.tokens.map((t) => stem(t.norm)).filter((s) => wanted.has(s))).size;
    if (hits > chosenHits) {
      chosen = sentence;
      chosenHits = hits;
    }
  }
  const first = chosen.tokens.find((t) => wanted.has(stem(t.norm))) ?? chosen.tokens[0];
  return { text: snippet(chosen.text, first.start, first.end, 100), startSeconds: turn.startSeconds };
}

function levelOf(raw: number): string {
  if (raw >= 0.75) return 'Strong';
  if (raw >= 0.5) return 'Solid';
  if (raw >= 0.25) return 'Partial';
  return 'Little';
}

function listWords(keywords: GoalKeyword[]): string {
  return keywords.map((k) => `"${k.word}"`).join(', ');
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
