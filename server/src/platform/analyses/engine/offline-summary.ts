// The offline summarizer: builds the analysis texts (title, summaries, strengths, growth areas,
// recommendations, highlights) from measured facts with fixed templates. No language model; the
// summary says so. Documented in docs/analysis.md ("Offline summarizer").

import { type Act, readConversationActs } from './acts.ts';
import { gatherEvidence } from './evidence.ts';
import { formatOffset } from './format-offset.ts';
import { parseScoreRange } from './score-range.ts';
import { compareText, snippet, sortTurns, splitSentences, topContentWords } from './text.ts';
import type {
  GoalDefinition,
  GoalEvaluation,
  Highlight,
  SpeechAnalytics,
  SpeechMetric,
  SummaryContent,
  TranscriptTurn,
} from './types.ts';

export interface OfflineSummaryInput {
  scenarioName: string;
  personaName: string;
  participantName: string | null;
  turns: TranscriptTurn[];
  evaluations: GoalEvaluation[];
  analytics: SpeechAnalytics;
  durationSeconds: number;
  /**
   * Optional goal definitions. When given, each evaluation's score is placed within its goal's
   * score range (see `parseScoreRange`), so goal results can be named as strengths or growth areas
   * and the weakest goal recommended. Without them scores are only listed.
   */
  goals?: GoalDefinition[];
}

/** At most this many highlights are returned. */
export const MAX_HIGHLIGHTS = 5;
/** Filler or weak words per minute at or above which they are called out as a growth area. */
export const FREQUENT_PER_MINUTE = 3;
/** Filler or weak words per minute below which (with 50+ words spoken) they are called a strength. */
export const RARE_PER_MINUTE = 2;

export function summarizeOffline(input: OfflineSummaryInput): SummaryContent {
  const { scenarioName, personaName, participantName, turns, evaluations, analytics, durationSeconds } =
    input;
  const who = participantName?.trim() || 'The participant';
  const whoLower = participantName?.trim() || 'the participant';
  const evidence = gatherEvidence(turns);
  const sorted = sortTurns(turns);
  const personaTurns = sorted.filter((t) => t.speaker === 'agent');
  const userTurns = evidence.turns.length;
  const questions = evidence.questions.length;
  const details = evidence.detailSentences.length;
  const avg = Math.round(evidence.averageWords * 10) / 10;
  const fillers = analytics.filler_words;
  const weak = analytics.weak_words;
  const reps = analytics.repetitions;
  const spokeEnough = analytics.participant_word_count >= 50;

  const title = participantName?.trim()
    ? `${scenarioName}: ${participantName.trim()} with ${personaName}`
    : `${scenarioName} with ${personaName}`;

  // Summary: what the participant did, the goal scores and the speech numbers.
  const summaryParts: string[] = [];
  if (userTurns === 0) {
    summaryParts.push(`${who} did not speak during the session with ${personaName}.`);
  } else {
    summaryParts.push(
      `${who} spoke ${analytics.participant_word_count} words over ${userTurns} turn${plural(userTurns)} in ${describeSession(durationSeconds)} with ${personaName}, giving ${evidence.substantiveTurns} substantive answer${plural(evidence.substantiveTurns)} and asking ${questions} question${plural(questions)}.`,
    );
  }
  if (evaluations.length > 0) {
    summaryParts.push(`Goal scores: ${evaluations.map((e) => `${e.goal_name} ${e.score}`).join('; ')}.`);
  }
  if (userTurns > 0) {
    summaryParts.push(
      `${analytics.participant_input === 'typed' ? 'Typed text (no speech rate)' : 'Speech'}: ${fillers.total} filler word${plural(fillers.total)}${rate(fillers)}, ${weak.total} hedge${plural(weak.total)}${rate(weak)}, ${reps.total} repetition${plural(reps.total)}.`,
    );
  }
  summaryParts.push(
    'This summary was produced by the offline rule-based summarizer; no language model was used.',
  );

  // Call summary: what happened in the conversation.
  const lasted = durationSeconds > 0 ? `; the call lasted ${describeLength(durationSeconds)}` : '';
  const callParts: string[] = [
    `${personaName} and ${whoLower} met for the "${scenarioName}" scenario${lasted}.`,
  ];
  const opener = personaTurns[0] ? splitSentences(personaTurns[0].message)[0] : undefined;
  if (opener) callParts.push(`${personaName} opened with: "${snippet(opener, 0, 0, 100)}"`);
  const topics = topContentWords(
    sorted.map((t) => t.message),
    5,
  );
  if (topics.length > 0) callParts.push(`Most discussed: ${topics.map((t) => t.word).join(', ')}.`);
  callParts.push(
    `${personaName} spoke ${personaTurns.length} turn${plural(personaTurns.length)} and ${whoLower} ${userTurns}.`,
  );
  if (evidence.questions[0]) {
    const q = evidence.questions[0];
    callParts.push(`${who} asked, for example: "${snippet(q.text, 0, 0, 100)}"`);
  }

  // Strengths and growth areas from measured signals.
  const strengths: string[] = [];
  const growth: string[] = [];
  const recommendations: string[] = [];
  if (details >= 2) {
    strengths.push(
      `Backed answers with concrete details: ${details} sentences with numbers, examples, reasons or results.`,
    );
  } else if (userTurns > 0) {
    growth.push(
      `Few concrete details: ${details} sentence${plural(details)} with numbers, examples, reasons or results.`,
    );
    recommendations.push(
      'Prepare two or three specific stories with numbers and outcomes, and say why each decision was made.',
    );
  }
  if (questions >= 2) {
    strengths.push(`Asked ${questions} questions, showing curiosity and engagement.`);
  } else if (userTurns > 0) {
    growth.push(questions === 0 ? 'Asked no questions.' : 'Asked only one question.');
    recommendations.push(`Come with questions for ${personaName} and ask them when the conversation allows.`);
  }
  if (evidence.substantiveTurns >= 3) {
    strengths.push(`Gave ${evidence.substantiveTurns} substantive answers (${avg} words on average).`);
  } else if (userTurns >= 2 && evidence.averageWords < 12) {
    growth.push(`Short answers: ${avg} words on average.`);
    recommendations.push('Answer in full: state the point, give one example, then say what came of it.');
  }
  // Typed text has no speech rate: fillers and hedges are judged per 100 words there instead.
  const fillerRate = perMinuteOrEquivalent(fillers, analytics);
  const weakRate = perMinuteOrEquivalent(weak, analytics);
  if (spokeEnough && fillerRate < RARE_PER_MINUTE) {
    strengths.push(`Few filler words (${describeRate(fillers, analytics)}).`);
  } else if (userTurns > 0 && fillerRate >= FREQUENT_PER_MINUTE) {
    growth.push(
      `Frequent filler words: ${describeRate(fillers, analytics)} (most often ${topItems(fillers)}).`,
    );
    recommendations.push('Replace filler words with a short pause; practise answers aloud and listen back.');
  }
  if (spokeEnough && weakRate < RARE_PER_MINUTE) {
    strengths.push(`Spoke with confidence: few hedges (${describeRate(weak, analytics)}).`);
  } else if (userTurns > 0 && weakRate >= FREQUENT_PER_MINUTE) {
    growth.push(`Frequent hedging: ${describeRate(weak, analytics)} (most often ${topItems(weak)}).`);
    recommendations.push(
      'State conclusions directly; keep "maybe", "just" and "I think" for real uncertainty.',
    );
  }
  if (reps.total >= 3) {
    growth.push(`Repeated words or phrases ${reps.total} times (most often ${topItems(reps)}).`);
    recommendations.push('Vary wording and finish each sentence before starting the next one.');
  }
  if (userTurns === 0) {
    growth.push('No participant speech was captured.');
    recommendations.push('Check the microphone and run the session again.');
  }
  // Goal results, placed within each goal's score range when the definitions are known.
  const placed = placeScores(evaluations, input.goals);
  for (const p of placed) {
    if (p.fraction >= GOAL_STRENGTH_FRACTION) strengths.push(`Strong result on "${p.name}": ${p.label}.`);
    else if (p.fraction < GOAL_GROWTH_FRACTION) growth.push(`Low result on "${p.name}": ${p.label}.`);
  }
  const weakest = [...placed]
    .filter((p) => p.fraction < GOAL_STRENGTH_FRACTION)
    .sort((a, b) => a.fraction - b.fraction || compareText(a.name, b.name))[0];
  if (weakest) {
    recommendations.push(`Focus next on "${weakest.name}", the lowest-scoring goal (${weakest.label}).`);
  }
  if (strengths.length === 0) {
    strengths.push(
      userTurns > 0
        ? `Stayed in the conversation for ${userTurns} turn${plural(userTurns)}.`
        : 'None identified: the participant did not speak.',
    );
  }
  if (growth.length === 0) growth.push('No major issues found by the offline rules.');
  if (recommendations.length === 0) recommendations.push('Run the scenario again with a harder variation.');

  return {
    title,
    summary: summaryParts.join(' '),
    call_summary: callParts.join(' '),
    strengths,
    growth_areas: growth,
    recommendations,
    highlights: pickHighlights(turns),
  };
}

/** Acts worth a highlight, best first, with the title each gets. */
const HIGHLIGHT_ACTS: ReadonlyArray<[Act, string]> = [
  ['nextStep', 'Next step agreed'],
  ['empathy', 'Empathy shown'],
  ['fix', 'Fixed the problem'],
  ['openQuestion', 'Open question'],
  ['ownership', 'Took ownership'],
  ['build', "Built on the partner's idea"],
  ['decision', 'Decision made'],
  ['reason', 'Reason given'],
  ['idea', 'Idea proposed'],
  ['question', 'Question asked'],
  ['specific', 'Concrete detail'],
];
/** A highlight quotes a sentence of at least this many words: "Okay, I hear you." says nothing. */
const HIGHLIGHT_MIN_WORDS = 6;

/**
 * Highlights, in time order, at most one per turn: sentences that carry an act (a next step, an
 * empathetic line, a fix, an open question …), strongest acts first. A sentence that does
 * nothing is never a highlight, however long its turn.
 */
function pickHighlights(turns: TranscriptTurn[]): Highlight[] {
  const candidates = readConversationActs(turns).filter(
    (a) => a.sentence.tokens.length >= HIGHLIGHT_MIN_WORDS && !a.acts.has('blame') && !a.acts.has('reject'),
  );
  const picked: { seconds: number; turn: number; index: number; title: string }[] = [];
  for (const [act, label] of HIGHLIGHT_ACTS) {
    const found = candidates
      .filter((a) => (a.acts.get(act) ?? 0) >= 1 && !picked.some((p) => p.turn === a.sentence.turn))
      .sort((x, y) => x.sentence.index - y.sentence.index)[0];
    if (!found) continue;
    const s = found.sentence;
    picked.push({
      turn: s.turn,
      index: s.index,
      seconds: s.startSeconds,
      title: `${label}: "${snippet(s.text, 0, 0, 70)}"`,
    });
  }
  return picked
    .sort((a, b) => a.seconds - b.seconds || a.index - b.index)
    .slice(0, MAX_HIGHLIGHTS)
    .map((p) => ({ title: p.title, timestamp: formatOffset(p.seconds) }));
}

/** A goal at or above this fraction of its score range is listed as a strength. */
export const GOAL_STRENGTH_FRACTION = 0.75;
/** A goal below this fraction of its score range is listed as a growth area. */
export const GOAL_GROWTH_FRACTION = 0.5;

interface PlacedScore {
  name: string;
  fraction: number;
  label: string;
}

function placeScores(evaluations: GoalEvaluation[], goals: GoalDefinition[] | undefined): PlacedScore[] {
  if (!goals) return [];
  const out: PlacedScore[] = [];
  for (const evaluation of evaluations) {
    const goal = goals.find((g) => g.id === evaluation.goal_id);
    if (!goal) continue;
    const { min, max } = parseScoreRange(goal.instructions);
    const fraction = Math.min(1, Math.max(0, (evaluation.score - min) / (max - min)));
    out.push({ name: evaluation.goal_name, fraction, label: `${evaluation.score} on ${min}–${max}` });
  }
  return out;
}

/** "a 3-minute session", "a 45-second session", or "a session" when the length is unknown. */
function describeSession(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'a session';
  if (seconds < 60) return `a ${Math.round(seconds)}-second session`;
  return `a ${Math.round(seconds / 60)}-minute session`;
}

/** "3 minutes", "1 minute", "45 seconds". */
function describeLength(seconds: number): string {
  if (seconds < 60) {
    const s = Math.round(seconds);
    return `${s} second${plural(s)}`;
  }
  const m = Math.round(seconds / 60);
  return `${m} minute${plural(m)}`;
}

function topItems(metric: { items: { text: string }[] }): string {
  return metric.items
    .slice(0, 2)
    .map((i) => `"${i.text}"`)
    .join(' and ');
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

/** A typical speaking pace: 150 words a minute, so 2 per 100 words compare with 3 per minute. */
const WORDS_PER_MINUTE = 150;

function rate(metric: SpeechMetric): string {
  return metric.per_minute === null ? '' : ` (${metric.per_minute} per minute)`;
}

/** The per-minute rate, or for typed text the same density expressed at a speaking pace. */
function perMinuteOrEquivalent(metric: SpeechMetric, analytics: SpeechAnalytics): number {
  if (metric.per_minute !== null) return metric.per_minute;
  const words = analytics.participant_word_count;
  return words > 0 ? (metric.total / words) * WORDS_PER_MINUTE : 0;
}

function describeRate(metric: SpeechMetric, analytics: SpeechAnalytics): string {
  if (metric.per_minute !== null) return `${metric.per_minute} per minute`;
  const words = analytics.participant_word_count;
  const per100 = words > 0 ? Math.round((metric.total / words) * 1000) / 10 : 0;
  return `${per100} per 100 typed words`;
}
