// Runs the offline analysis (evaluator and summarizer, as the pipeline calls them in
// analyses/evaluators.ts) over the hand-scored conversations of conversations.ts and measures how
// far it is from the team lead's bands. Documented in docs/analysis.md ("Evaluation on
// hand-scored conversations (issue 27)").

import { leadOfScenarioType } from '../conversation-evidence.ts';
import { evaluateGoalsOffline } from '../offline-goal-scoring.ts';
import { summarizeOffline } from '../offline-summary.ts';
import { parseScoreRange } from '../score-range.ts';
import { computeSpeechAnalytics } from '../speech-analytics.ts';
import type { GoalEvaluation, TranscriptTurn } from '../types.ts';
import { type Band, CONVERSATIONS, type Conversation, type Scale, type SetGoal } from './conversations.ts';

/** The quality goal: at least this share of goal results within the team lead's band (asserted in evaluation.test.ts). */
export const QUALITY_GOAL_WITHIN_BAND = 0.85;

/** A highlight quoting fewer words than this is trivial. */
export const MIN_HIGHLIGHT_WORDS = 6;

/** Words that acknowledge without saying anything: a highlight quoting only these is trivial. */
const ACKNOWLEDGEMENTS = new Set(
  `ok okay alright all right sure yes yeah yep no nope i i'm hear you see got it that's thats fine great good
cool thanks thank perfect right understand understood makes sense of course absolutely totally hi hello bye
sorry oh ah um uh hmm well so and`.split(/\s+/),
);

/** Feedback that says the participant left no trace of the goal. */
const NO_EVIDENCE =
  /\b(no answer touched|no evidence|no participant answer used|no participant speech|did not speak)\b/i;
/** Feedback that hands the goal's own text back as advice. */
const BRING_INTO_CONVERSATION = /\bbring\b[^.]*\binto the conversation\b/i;

export interface GoalOutcome {
  conversationId: string;
  kind: string;
  quality: string;
  goalId: string;
  goalName: string;
  /** The evaluator's score, on the range it read from the goal's instructions. */
  score: number;
  scoreRange: Scale;
  /** The same score read on the goal's scale in the set (rounded), compared with the band. */
  onScale: number;
  scale: Scale;
  band: Band;
  within: boolean;
  /** Points outside the band, on a 1–10 basis (a 1–5 goal's distance × 9/4); 0 within it. */
  distance: number;
  feedback: string;
  shortDescription: string;
  /** Feedback names the goal, or tells the participant to bring it "into the conversation". */
  quotesGoal: boolean;
  /** The band says the goal was met (its lower end in the upper half) yet feedback claims no evidence. */
  claimsNoEvidence: boolean;
  /** Sentence ids cited; of them, persona sentences and ids no sentence of the transcript has. */
  cited: number;
  citedPersona: number;
  citedMissing: number;
  /** The band's evidence phrases, and how many of them the cited sentences cover. */
  evidenceTotal: number;
  evidenceCited: number;
}

export interface HighlightOutcome {
  conversationId: string;
  kind: string;
  title: string;
  words: number;
  trivial: boolean;
}

export interface Figures {
  conversations: number;
  goals: number;
  within: number;
  /** Mean distance outside the band over all goal results (0 for those within), 1–10 basis. */
  meanDistance: number;
  /** Mean distance over the misses only. */
  meanMissDistance: number;
  quotesGoal: number;
  claimsNoEvidence: number;
  highlights: number;
  trivialHighlights: number;
  cited: number;
  citedPersona: number;
  citedMissing: number;
  evidenceTotal: number;
  evidenceCited: number;
}

export interface EvaluationReport {
  outcomes: GoalOutcome[];
  highlights: HighlightOutcome[];
  total: Figures;
  byKind: Map<string, Figures>;
  byQuality: Map<string, Figures>;
  misses: GoalOutcome[];
}

/** Participant and persona sentence ids of a transcript. */
function sentenceIds(turns: TranscriptTurn[]): { user: Map<number, string>; agent: Set<number> } {
  const user = new Map<number, string>();
  const agent = new Set<number>();
  for (const turn of turns) {
    for (const sentence of turn.sentences ?? []) {
      if (turn.speaker === 'user') user.set(sentence.id, sentence.message);
      else agent.add(sentence.id);
    }
  }
  return { user, agent };
}

const fold = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ');

/** The participant sentence ids holding a phrase (empty when none does). */
export function sentencesWith(conversation: Conversation, phrase: string): number[] {
  const wanted = fold(phrase);
  return [...sentenceIds(conversation.turns).user]
    .filter(([, message]) => fold(message).includes(wanted))
    .map(([id]) => id);
}

/** A score on the evaluator's range, read on the set's scale and rounded. */
function readOnScale(score: number, from: Scale, to: Scale): number {
  if (from.min === to.min && from.max === to.max) return score;
  return Math.round(to.min + ((score - from.min) / (from.max - from.min)) * (to.max - to.min));
}

function judgeGoal(
  conversation: Conversation,
  goal: SetGoal,
  result: GoalEvaluation,
  ids: ReturnType<typeof sentenceIds>,
): GoalOutcome {
  const band = conversation.bands[goal.id];
  const scoreRange = parseScoreRange(goal.instructions);
  const onScale = readOnScale(result.score, scoreRange, goal.scale);
  const outside = onScale < band.min ? band.min - onScale : onScale > band.max ? onScale - band.max : 0;
  const distance = (outside * 9) / (goal.scale.max - goal.scale.min);
  const feedback = result.feedback;
  const met = band.min >= goal.scale.min + (goal.scale.max - goal.scale.min) / 2;
  const cited = new Set(result.sentence_ids);
  const evidence = band.evidence ?? [];
  return {
    conversationId: conversation.id,
    kind: conversation.scenario.kind,
    quality: conversation.quality,
    goalId: goal.id,
    goalName: goal.name,
    score: result.score,
    scoreRange,
    onScale,
    scale: goal.scale,
    band,
    within: outside === 0,
    distance,
    feedback,
    shortDescription: result.short_description,
    quotesGoal:
      feedback.toLowerCase().includes(goal.name.toLowerCase()) || BRING_INTO_CONVERSATION.test(feedback),
    claimsNoEvidence: met && NO_EVIDENCE.test(feedback),
    cited: result.sentence_ids.length,
    citedPersona: result.sentence_ids.filter((id) => ids.agent.has(id)).length,
    citedMissing: result.sentence_ids.filter((id) => !ids.agent.has(id) && !ids.user.has(id)).length,
    evidenceTotal: evidence.length,
    evidenceCited: evidence.filter((phrase) =>
      sentencesWith(conversation, phrase).some((id) => cited.has(id)),
    ).length,
  };
}

function judgeHighlight(conversation: Conversation, title: string): HighlightOutcome {
  const quoted = /"(.*)"\s*$/s.exec(title)?.[1] ?? '';
  const words = fold(quoted.replace(/…/g, ' ')).match(/[\p{L}\p{N}'-]+/gu) ?? [];
  return {
    conversationId: conversation.id,
    kind: conversation.scenario.kind,
    title,
    words: words.length,
    trivial: words.length < MIN_HIGHLIGHT_WORDS || words.every((w) => ACKNOWLEDGEMENTS.has(w)),
  };
}

/** Runs the offline analysis on one conversation as the pipeline does. */
export function analyse(conversation: Conversation) {
  const { scenario, turns, durationSeconds } = conversation;
  const analytics = computeSpeechAnalytics(turns, durationSeconds);
  const evaluations = evaluateGoalsOffline(scenario.goals, turns, analytics, {
    lead: leadOfScenarioType(scenario.type),
  });
  const summary = summarizeOffline({
    scenarioName: scenario.name,
    personaName: scenario.personaName,
    participantName: conversation.participantName,
    turns,
    evaluations,
    analytics,
    durationSeconds,
    goals: scenario.goals,
  });
  return { evaluations, summary };
}

function figures(outcomes: GoalOutcome[], highlights: HighlightOutcome[]): Figures {
  const misses = outcomes.filter((o) => !o.within);
  const sum = (pick: (o: GoalOutcome) => number) => outcomes.reduce((s, o) => s + pick(o), 0);
  const distance = sum((o) => o.distance);
  return {
    conversations: new Set(outcomes.map((o) => o.conversationId)).size,
    goals: outcomes.length,
    within: outcomes.length - misses.length,
    meanDistance: outcomes.length > 0 ? distance / outcomes.length : 0,
    meanMissDistance: misses.length > 0 ? distance / misses.length : 0,
    quotesGoal: outcomes.filter((o) => o.quotesGoal).length,
    claimsNoEvidence: outcomes.filter((o) => o.claimsNoEvidence).length,
    highlights: highlights.length,
    trivialHighlights: highlights.filter((h) => h.trivial).length,
    cited: sum((o) => o.cited),
    citedPersona: sum((o) => o.citedPersona),
    citedMissing: sum((o) => o.citedMissing),
    evidenceTotal: sum((o) => o.evidenceTotal),
    evidenceCited: sum((o) => o.evidenceCited),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Runs the analysis over the set and measures it against the bands. */
export function measure(conversations: readonly Conversation[] = CONVERSATIONS): EvaluationReport {
  const outcomes: GoalOutcome[] = [];
  const highlights: HighlightOutcome[] = [];
  for (const conversation of conversations) {
    const { evaluations, summary } = analyse(conversation);
    const ids = sentenceIds(conversation.turns);
    for (const goal of conversation.scenario.goals) {
      const result = evaluations.find((e) => e.goal_id === goal.id);
      if (!result) throw new Error(`${conversation.id}: no result for ${goal.id}`);
      outcomes.push(judgeGoal(conversation, goal, result, ids));
    }
    for (const h of summary.highlights) highlights.push(judgeHighlight(conversation, h.title));
  }
  const group = (key: (o: GoalOutcome) => string) =>
    new Map(
      [...groupBy(outcomes, key)].map(([name, list]) => {
        const convs = new Set(list.map((o) => o.conversationId));
        return [
          name,
          figures(
            list,
            highlights.filter((h) => convs.has(h.conversationId)),
          ),
        ];
      }),
    );
  return {
    outcomes,
    highlights,
    total: figures(outcomes, highlights),
    byKind: group((o) => o.kind),
    byQuality: group((o) => o.quality),
    misses: outcomes.filter((o) => !o.within),
  };
}

/** Problems with the set itself (not the evaluator): missing bands, bands off the scale, evidence not found. */
export function checkSet(conversations: readonly Conversation[] = CONVERSATIONS): string[] {
  const problems: string[] = [];
  const seenIds = new Set<number>();
  for (const conversation of conversations) {
    for (const turn of conversation.turns) {
      for (const s of turn.sentences ?? []) {
        if (seenIds.has(s.id)) problems.push(`${conversation.id}: sentence id ${s.id} used twice`);
        seenIds.add(s.id);
      }
    }
    for (const goal of conversation.scenario.goals) {
      const band = conversation.bands[goal.id];
      if (!band) {
        problems.push(`${conversation.id}: no band for ${goal.id}`);
        continue;
      }
      if (!(goal.scale.min <= band.min && band.min <= band.max && band.max <= goal.scale.max)) {
        problems.push(
          `${conversation.id}: band ${band.min}–${band.max} of ${goal.id} is off its ${goal.scale.min}–${goal.scale.max} scale`,
        );
      }
      if (goal.instructions) {
        const named = parseScoreRange(goal.instructions);
        const hasRange = /\d\s*(-|–|to)\s*\d/.test(goal.instructions);
        if (hasRange && (named.min !== goal.scale.min || named.max !== goal.scale.max)) {
          problems.push(
            `${goal.id}: its instructions name ${named.min}–${named.max}, the set reads it on another scale`,
          );
        }
      }
      for (const phrase of band.evidence ?? []) {
        if (sentencesWith(conversation, phrase).length === 0) {
          problems.push(`${conversation.id}: evidence "${phrase}" is in no participant sentence`);
        }
      }
    }
    for (const id of Object.keys(conversation.bands)) {
      if (!conversation.scenario.goals.some((g) => g.id === id)) {
        problems.push(`${conversation.id}: band for unknown goal ${id}`);
      }
    }
  }
  return problems;
}

const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–');

function row(label: string, f: Figures): string {
  const cells = [
    label.padEnd(16),
    String(f.conversations).padStart(5),
    String(f.goals).padStart(5),
    `${f.within} (${pct(f.within, f.goals)})`.padStart(10),
    f.meanDistance.toFixed(2).padStart(9),
    f.meanMissDistance.toFixed(2).padStart(9),
    String(f.quotesGoal).padStart(9),
    String(f.claimsNoEvidence).padStart(8),
    `${f.trivialHighlights}/${f.highlights}`.padStart(9),
    `${f.citedPersona}/${f.citedMissing}`.padStart(10),
    `${f.evidenceCited}/${f.evidenceTotal}`.padStart(9),
  ];
  return cells.join(' ');
}

const HEADER = [
  'group'.padEnd(16),
  'convs'.padStart(5),
  'goals'.padStart(5),
  'in band'.padStart(10),
  'dist/all'.padStart(9),
  'dist/miss'.padStart(9),
  'goal text'.padStart(9),
  'no evid'.padStart(8),
  'triv. hl'.padStart(9),
  'pers/miss'.padStart(10),
  'evidence'.padStart(9),
].join(' ');

const LEGEND = [
  'in band: goal results whose score (read on the goal’s scale) lies in the team lead’s band',
  'dist/all, dist/miss: mean points outside the band on a 1–10 basis, over all results / over the misses',
  'goal text: feedback naming the goal or telling the participant to bring it "into the conversation"',
  'no evid: feedback claiming no evidence where the band says the goal was met',
  'triv. hl: highlights quoting under 6 words or only acknowledgements / all highlights',
  'pers/miss: cited sentence ids that are persona sentences / that do not exist',
  'evidence: the band’s evidence phrases whose sentence is cited / all evidence phrases',
];

/** The report as text: a table per kind and quality, the total, then every miss. */
export function formatReport(report: EvaluationReport): string {
  const lines: string[] = [];
  lines.push(HEADER);
  for (const [kind, f] of report.byKind) lines.push(row(kind, f));
  lines.push(row('TOTAL', report.total));
  lines.push('');
  lines.push(HEADER.replace('group', 'quality'));
  for (const [quality, f] of report.byQuality) lines.push(row(quality, f));
  lines.push('');
  lines.push(...LEGEND.map((l) => `  ${l}`));
  lines.push('');
  lines.push(`Misses (${report.misses.length}):`);
  for (const m of report.misses) {
    const read =
      m.scoreRange.min === m.scale.min && m.scoreRange.max === m.scale.max
        ? `${m.score}`
        : `${m.score} on ${m.scoreRange.min}–${m.scoreRange.max} = ${m.onScale}`;
    lines.push(
      `- ${m.conversationId} · ${m.goalName}: ${read}, band ${m.band.min}–${m.band.max} of ${m.scale.min}–${m.scale.max}`,
    );
    lines.push(`    feedback: ${m.feedback}`);
  }
  const trivial = report.highlights.filter((h) => h.trivial);
  lines.push('');
  lines.push(`Trivial highlights (${trivial.length}):`);
  for (const h of trivial) lines.push(`- ${h.conversationId}: ${h.title}`);
  return lines.join('\n');
}
