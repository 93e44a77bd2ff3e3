// The offline goal evaluator: an honest, deterministic rubric (not a model) used when no language
// model is configured, or when the model's analysis stays invalid. It scores what the participant
// did in the conversation (questions asked, facts elicited, playback, next steps; or the quality of
// their answers when the persona leads), never the mere presence of the goal's words.
// Documented in docs/analysis.md ("Offline evaluator"); keep the weights there in step.

import {
  type ConversationEvidence,
  contentStems,
  gatherConversation,
  type Lead,
} from './conversation-evidence.ts';
import { formatOffset } from './format-offset.ts';
import { type Facet, facetOfStem, facetWeights, goalFacets } from './goal-facets.ts';
import { parseScoreRange } from './score-range.ts';
import { computeSpeechAnalytics } from './speech-analytics.ts';
import { clamp01, isStopWord, type ParticipantSentence, snippet, stem, tokenize } from './text.ts';
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

interface FacetResult {
  value: number;
  sentences: ParticipantSentence[];
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
  const conversation = gatherConversation(turns);
  const lead =
    options.lead ??
    (conversation.personaQuestions > conversation.questions.length ? 'persona' : 'participant');
  analytics ??= computeSpeechAnalytics(
    turns,
    turns.reduce((max, t) => Math.max(max, t.startSeconds), 0),
  );
  return active.map((goal) => evaluateGoal(goal, lead, conversation, analytics));
}

function evaluateGoal(
  goal: GoalDefinition,
  lead: Lead,
  conversation: ConversationEvidence,
  analytics: SpeechAnalytics,
): GoalEvaluation {
  const range = parseScoreRange(goal.instructions);
  const keywords = goalKeywords(goal);
  const named = goalFacets(goal);
  const weights = facetWeights(lead, named);
  const results = new Map<Facet, FacetResult>();
  for (const facet of weights.keys()) results.set(facet, measureFacet(facet, lead, keywords, conversation));
  const words = analytics.participant_word_count;
  const fillerRate = words > 0 ? (analytics.filler_words.total + analytics.weak_words.total) / words : 0;
  const fillerPenalty = MAX_FILLER_PENALTY * clamp01((fillerRate - 0.03) / 0.12);
  const weighted = [...weights].reduce((sum, [facet, w]) => sum + w * results.get(facet)!.value, 0);
  const raw = words === 0 ? 0 : clamp01(weighted - fillerPenalty);
  const score = Math.round(range.min + raw * (range.max - range.min));
  const scale = `${score} on a ${range.min}–${range.max} scale`;
  const cited = [...results.values()].flatMap((r) => r.sentences);
  const sentenceIds = [...new Set(cited.map((s) => s.sentenceId).filter((id): id is number => id !== null))]
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

  const quote = bestQuote(results.get('C')?.sentences ?? [], keywords);
  const evidenceLine = quote
    ? `Best matching answer (${formatOffset(quote.startSeconds)}): "${quote.text}"`
    : `No participant answer used this goal's terms${keywords.length > 0 ? ` (${listWords(keywords.slice(0, 5))})` : ''}.`;
  const order = [...weights].sort((a, b) => b[1] - a[1]);
  const facetLines = order.map(
    ([facet, w]) =>
      `${describeFacet(facet, conversation, keywords, results.get(facet)!)} (weight ${Math.round(w * 100)}%)`,
  );
  const long = [
    `Offline rule-based evaluation: ${scale}. A fixed rubric scored what was done, not the words used; ${lead === 'participant' ? 'the participant led the conversation' : 'the persona led the conversation'}.`,
    `${facetLines.join('; ')}.`,
    fillerPenalty > 0
      ? `Penalty: ${analytics.filler_words.total + analytics.weak_words.total} filler and hedge words out of ${words}.`
      : 'No penalties.',
    evidenceLine,
  ].join(' ');

  const tips = order
    .filter(([facet]) => results.get(facet)!.value < 0.6)
    .map(([facet]) => tipFor(facet, goal, keywords, conversation))
    .filter((tip): tip is string => tip !== null);
  if (fillerPenalty > 0) {
    const top = [...analytics.filler_words.items, ...analytics.weak_words.items]
      .sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .slice(0, 3)
      .map((i) => `"${i.text}"`);
    tips.push(`Cut fillers and hedges such as ${top.join(', ')}.`);
  }
  if (tips.length === 0) tips.push('Keep it up: the evidence for this goal is strong.');
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
    short_description: `${levelOf(raw)} evidence: ${summaryCounts(lead, conversation)}.`,
    long_description: long,
    feedback,
    sentence_ids: sentenceIds,
  };
}

function measureFacet(
  facet: Facet,
  lead: Lead,
  keywords: GoalKeyword[],
  c: ConversationEvidence,
): FacetResult {
  switch (facet) {
    case 'Q':
      return {
        value: clamp01(c.questions.reduce((sum, q) => sum + q.weight, 0) / QUESTIONS_FOR_FULL),
        sentences: c.questions.map((q) => q.sentence),
      };
    case 'F':
      return {
        value: clamp01(c.facts.length / FACTS_FOR_FULL),
        sentences: c.facts.flatMap((f) => [...f.askedBy, f.sentence]),
      };
    case 'P':
      return { value: c.playback.score, sentences: c.playback.sentences };
    case 'N':
      return { value: clamp01(c.commitments / NEXT_STEPS_FOR_FULL), sentences: c.nextSteps };
    case 'A': {
      if (c.answers.length === 0) return { value: 0, sentences: [] };
      const value = c.answers.reduce((sum, a) => sum + a.quality, 0) / c.answers.length;
      return { value, sentences: c.answers.filter((a) => a.quality >= 0.5).flatMap((a) => a.sentences) };
    }
    case 'C': {
      // The goal's topic counts only where it came up through a question and its answer, a playback
      // or a next step, or (when the persona leads) in sentences written as language; never in a
      // keyword list.
      const pool =
        lead === 'participant'
          ? [
              ...c.questions.map((q) => q.sentence),
              ...c.facts.map((f) => f.sentence),
              ...c.playback.sentences,
              ...c.nextSteps,
            ]
          : c.naturalSentences;
      const wanted = new Set(keywords.map((k) => k.stem));
      const matched = new Set<string>();
      const sentences: ParticipantSentence[] = [];
      for (const sentence of pool) {
        const hits = [...contentStems(sentence.text)].filter((s) => wanted.has(s));
        if (hits.length === 0) continue;
        for (const s of hits) matched.add(s);
        sentences.push(sentence);
      }
      const needed = Math.min(5, Math.max(1, Math.ceil(keywords.length / 3)));
      return { value: keywords.length === 0 ? 0 : clamp01(matched.size / needed), sentences };
    }
  }
}

function describeFacet(
  facet: Facet,
  c: ConversationEvidence,
  keywords: GoalKeyword[],
  r: FacetResult,
): string {
  const pct = `${Math.round(r.value * 100)}%`;
  switch (facet) {
    case 'Q': {
      const open = c.questions.filter((q) => q.weight === 1).length;
      return `questions asked ${pct}: ${c.questions.length} (${open} open)`;
    }
    case 'F':
      return `facts elicited ${pct}: ${c.facts.length} revealed in answer to the participant's questions`;
    case 'P':
      return `playback ${pct}: ${c.playback.restated} revealed facts' words restated`;
    case 'N':
      return `next steps ${pct}: ${c.commitments} commitment${plural(c.commitments)}`;
    case 'A':
      return `answer quality ${pct} over ${c.answers.length} answer${plural(c.answers.length)} (specifics, structure, length, written as language rather than a keyword list)`;
    case 'C': {
      const raised = keywords.filter((k) => r.sentences.some((s) => contentStems(s.text).has(k.stem)));
      return `goal topic ${pct}: ${raised.length} of ${keywords.length} goal terms raised`;
    }
  }
}

function tipFor(
  facet: Facet,
  goal: GoalDefinition,
  keywords: GoalKeyword[],
  c: ConversationEvidence,
): string | null {
  switch (facet) {
    case 'Q':
      return `Ask more questions of your own (${c.questions.length} asked), open ones first: what, how, why.`;
    case 'F':
      return 'Follow each answer with a question that draws out a specific fact: a number, a name, a date.';
    case 'P':
      return 'Play back what you heard in your own words ("So what I heard is…") and check it is right.';
    case 'N':
      return 'Close with concrete next steps: who does what, by when ("I will send the summary by Friday").';
    case 'A':
      return 'Answer each question in full sentences: the point, a specific example with a number, the reason, the result.';
    case 'C':
      return keywords.length > 0
        ? `Bring "${goal.name}" into the conversation, for example ${listWords(keywords.slice(0, 3))}.`
        : null;
  }
}

function summaryCounts(lead: Lead, c: ConversationEvidence): string {
  if (lead === 'persona') {
    const good = c.answers.filter((a) => a.quality >= 0.5).length;
    return `${good} of ${c.answers.length} answer${plural(c.answers.length)} specific and well formed, ${c.questions.length} question${plural(c.questions.length)} asked`;
  }
  return `${c.questions.length} question${plural(c.questions.length)} asked, ${c.facts.length} fact${plural(c.facts.length)} elicited, ${c.playback.score >= 0.5 ? 'a playback' : 'no playback'}, ${c.commitments} next step${plural(c.commitments)}`;
}

/** A short quote from the participant sentence with the most goal terms (ties: the earlier). */
function bestQuote(
  sentences: ParticipantSentence[],
  keywords: GoalKeyword[],
): { text: string; startSeconds: number } | null {
  const wanted = new Set(keywords.map((k) => k.stem));
  let best: ParticipantSentence | null = null;
  let bestHits = 0;
  for (const sentence of sentences) {
    if (sentence.speaker !== 'user') continue;
    const hits = new Set(sentence.tokens.map((t) => stem(t.norm)).filter((s) => wanted.has(s))).size;
    if (hits > bestHits) {
      best = sentence;
      bestHits = hits;
    }
  }
  if (!best) return null;
  const first = best.tokens.find((t) => wanted.has(stem(t.norm))) ?? best.tokens[0];
  return { text: snippet(best.text, first.start, first.end, 100), startSeconds: best.startSeconds };
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
