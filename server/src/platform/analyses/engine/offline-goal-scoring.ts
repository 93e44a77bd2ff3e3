// The offline goal evaluator: an honest, deterministic rubric (not a model) used when no language
// model is configured, or when the model's analysis stays invalid. It scores what the participant
// did in the conversation (questions asked, facts elicited, playback, next steps; or the quality of
// their answers when the persona leads), never the mere presence of the goal's words.
// Documented in docs/analysis.md ("Offline evaluator"); keep the weights there in step.

import { readConversationActs, type SentenceActs } from './acts.ts';
import { readAgreement } from './agreement.ts';
import {
  type ConversationEvidence,
  contentStems,
  gatherConversation,
  type Lead,
} from './conversation-evidence.ts';
import { FAMILY_LABELS, FAMILY_TIPS, scoreFamily } from './family-scores.ts';
import { formatOffset } from './format-offset.ts';
import { goalFamilies } from './goal-acts.ts';
import { facetOfStem } from './goal-facets.ts';
import { coverage, factsToCollect } from './goal-topics.ts';
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

export const MAX_FILLER_PENALTY = 0.2;
/** Open questions (weighted 1, closed 0.6) for full marks on questions asked. */
export const QUESTIONS_FOR_FULL = 4;
/** Facts the persona revealed in answer, for full marks on facts elicited. */
export const FACTS_FOR_FULL = 6;
/** Commitments for full marks on next steps. */
export const NEXT_STEPS_FOR_FULL = 2;
/** At most this many sentence ids are listed per goal result. */
export const MAX_SENTENCE_IDS = 40;

export interface GoalKeyword {
  stem: string;
  /** The first spelling seen in the goal text. */
  word: string;
}

/**
 * Topic keywords of a goal: words of name, description and instructions, minus stop words, scoring
 * words and the words that name a kind of evidence (ask, question, summarise …, see goal-facets.ts).
 */
export function goalKeywords(goal: GoalDefinition): GoalKeyword[] {
  const seen = new Map<string, string>();
  for (const text of [goal.name, goal.description ?? '', goal.instructions ?? '']) {
    for (const token of tokenize(text)) {
      const word = token.norm;
      if (word.length < 3 || /\d/.test(word) || isStopWord(word) || GOAL_BOILERPLATE.has(word)) continue;
      const s = stem(word);
      if (BOILERPLATE_STEMS.has(s) || facetOfStem(s) || seen.has(s)) continue;
      seen.set(s, word);
    }
  }
  return [...seen].map(([s, word]) => ({ stem: s, word }));
}

export interface OfflineEvaluationOptions {
  /** Who leads the conversation; inferred from who asked more questions when not given. */
  lead?: Lead | null;
}

/**
 * Scores every active goal from what the participant did in the conversation. Inactive goals are
 * skipped. Same input, same output: no randomness, no clock. `analytics` of the same turns may be
 * passed in when already computed (only counts are read).
 */
export function evaluateGoalsOffline(
  goals: GoalDefinition[],
  turns: TranscriptTurn[],
  analytics?: SpeechAnalytics,
  options: OfflineEvaluationOptions = {},
): GoalEvaluation[] {
  const active = goals.filter((g) => g.active);
  if (active.length === 0) return [];
  const acts = readConversationActs(turns);
  const asking = new Set(
    acts.filter((a) => a.acts.has('question') || a.acts.has('openQuestion')).map((a) => a.sentence.index),
  );
  const conversation = gatherConversation(turns, asking);
  const lead =
    options.lead ??
    (conversation.personaQuestions > conversation.questions.length ? 'persona' : 'participant');
  analytics ??= computeSpeechAnalytics(
    turns,
    turns.reduce((max, t) => Math.max(max, t.startSeconds), 0),
  );
  return active.map((goal) => evaluateGoal(goal, lead, conversation, acts, analytics, turns));
}

function evaluateGoal(
  goal: GoalDefinition,
  lead: Lead,
  conversation: ConversationEvidence,
  allActs: SentenceActs[],
  analytics: SpeechAnalytics,
  turns: TranscriptTurn[],
): GoalEvaluation {
  const range = parseScoreRange(goal.instructions);
  const families = goalFamilies(goal, lead);
  // A sentence that restates the goal's own words is talk about the skill, not the skill: it is
  // not evidence for this goal, whatever acts it seems to carry.
  const echoes = goalEchoes(goal, allActs);
  const acts = allActs.filter((a) => !echoes.has(a.sentence.index));
  const agreement = families.has('agreement') ? readAgreement(acts, turns) : undefined;
  const results = [...families].map(([family, weight]) => ({
    weight,
    ...scoreFamily(family, acts, conversation, lead, agreement),
  }));
  // A goal listing facts to collect: asking and drawing out are worth the share of them covered.
  const items = factsToCollect(goal);
  if (items.length > 0) {
    const found = coverage(items, acts, turns);
    for (const r of results.filter((r) => r.family === 'questions' || r.family === 'facts')) {
      r.value = found.covered.length / items.length;
      r.evidence = found.sentences;
      r.counted = `${found.covered.length} of the ${items.length} facts the goal lists asked for or drawn out${found.covered.length > 0 ? ` (${found.covered.map((i) => i.text).join(', ')})` : ''}`;
    }
  }
  const words = analytics.participant_word_count;
  const fillerRate = words > 0 ? (analytics.filler_words.total + analytics.weak_words.total) / words : 0;
  const fillerPenalty = MAX_FILLER_PENALTY * clamp01((fillerRate - 0.03) / 0.12);
  const weighted = results.reduce((sum, r) => sum + r.weight * r.value, 0);
  const raw = words === 0 ? 0 : clamp01(weighted - fillerPenalty);
  const score = Math.round(range.min + raw * (range.max - range.min));
  const scale = `${score} on a ${range.min}–${range.max} scale`;
  const sentenceIds = [
    ...new Set(
      results
        .flatMap((r) => r.evidence)
        .filter((s) => s.speaker === 'user')
        .map((s) => s.sentenceId)
        .filter((id): id is number => id !== null),
    ),
  ]
    .sort((a, b) => a - b)
    .slice(0, MAX_SENTENCE_IDS);

  if (words === 0) {
    const none = 'No participant speech was captured, so there is no evidence for this goal.';
    return {
      goal_id: goal.id,
      goal_name: goal.name,
      score,
      short_description: 'No evidence: the participant did not speak.',
      long_description: `Offline rule-based evaluation: ${scale}. ${none}`,
      feedback: none,
      sentence_ids: [],
    };
  }

  const order = [...results].sort((a, b) => b.weight - a.weight);
  const quotes = order
    .filter((r) => r.evidence.length > 0 && r.value > 0)
    .slice(0, 2)
    .map(
      (r) =>
        `${capitalise(FAMILY_LABELS[r.family])} (${formatOffset(r.evidence[0].startSeconds)}): "${snippet(r.evidence[0].text, 0, 0, 100)}"`,
    );
  const long = [
    `Offline rule-based evaluation: ${scale}. A fixed rubric scored what the participant did (their acts), not the words used; ${lead === 'participant' ? 'the participant led the conversation' : 'the persona led the conversation'}.`,
    `${order.map((r) => `${FAMILY_LABELS[r.family]} ${Math.round(r.value * 100)}%: ${r.counted} (weight ${Math.round(r.weight * 100)}%)`).join('; ')}.`,
    fillerPenalty > 0
      ? `Penalty: ${analytics.filler_words.total + analytics.weak_words.total} filler and hedge words out of ${words}.`
      : 'No penalties.',
    quotes.length > 0
      ? `Evidence: ${quotes.join('; ')}.`
      : "None of the participant's sentences did what this goal asks.",
  ].join(' ');

  const tips = order.filter((r) => r.value < 0.6).map((r) => FAMILY_TIPS[r.family]);
  if (fillerPenalty > 0) {
    const top = [...analytics.filler_words.items, ...analytics.weak_words.items]
      .sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .slice(0, 3)
      .map((i) => `"${i.text}"`);
    tips.push(`Cut fillers and hedges such as ${top.join(', ')}.`);
  }
  if (tips.length === 0) tips.push('Keep it up: the evidence for this goal is strong.');
  const opening =
    quotes.length > 0
      ? `What you did: ${quotes.join('; ')}.`
      : echoes.size > 0
        ? 'You talked about this skill, but none of your sentences did it yet.'
        : 'None of your sentences did this yet.';
  return {
    goal_id: goal.id,
    goal_name: goal.name,
    score,
    short_description: `${levelOf(raw)} evidence: ${order.map((r) => r.counted).join(', ')}.`,
    long_description: long,
    feedback: [opening, ...tips].join(' '),
    sentence_ids: sentenceIds,
  };
}

/**
 * Participant sentences that echo the goal: two words of its name, or one of its name among 2+
 * words of name and description making a quarter of the sentence's words. Topic words of the
 * description alone ("the product team") are not an echo: a real question uses them too.
 */
function goalEchoes(goal: GoalDefinition, acts: SentenceActs[]): Set<number> {
  const drop = (stems: Set<string>) => new Set([...stems].filter((s) => !BOILERPLATE_STEMS.has(s)));
  const nameStems = drop(contentStems(goal.name));
  const goalStems = drop(contentStems(`${goal.name} ${goal.description ?? ''}`));
  const echoes = new Set<number>();
  for (const { sentence, acts: done } of acts) {
    // A dated commitment is a next step whatever words it uses ("As next steps, I will send… by Friday").
    if ((done.get('nextStep') ?? 0) >= 1) continue;
    const own = [...contentStems(sentence.text)];
    const nameHits = own.filter((s) => nameStems.has(s)).length;
    const hits = own.filter((s) => goalStems.has(s)).length;
    if (nameHits >= 2 || (nameHits >= 1 && hits >= 2 && hits / own.length >= 0.25))
      echoes.add(sentence.index);
  }
  return echoes;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function levelOf(raw: number): string {
  if (raw >= 0.75) return 'Strong';
  if (raw >= 0.5) return 'Solid';
  if (raw >= 0.25) return 'Partial';
  return 'Little';
}
