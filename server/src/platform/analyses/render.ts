// The three shapes of per-goal results (spec "Analysis"): embedded in a meeting read, standalone
// on the /analyses routes, and in the `session.analysis_complete` webhook payload.
import type { AnalysisData } from '../events/catalog.ts';
import type { AnalysisRow, AnalysisWithMeeting, GoalResultRow } from './repository.ts';

function commonFields(row: AnalysisRow) {
  return {
    id: row.id,
    meeting_id: row.meeting_id,
    scenario_id: row.scenario_id,
    title: row.title,
    summary: row.summary,
    call_summary: row.call_summary,
    average_score: row.average_score,
    total_score: row.total_score,
    strengths: row.strengths,
    growth_areas: row.growth_areas,
    recommendations: row.recommendations,
    highlights: row.highlights,
    conversation_length: row.conversation_length,
    repetitions: row.repetitions,
    filler_words: row.filler_words,
    weak_words: row.weak_words,
    sentence_starters: row.sentence_starters,
    participant_word_count: row.participant_word_count,
    participant_speaking_minutes: row.participant_speaking_minutes,
    participant_input: row.participant_input,
    evaluator: row.evaluator,
    evaluator_reason: row.evaluator_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Standalone: `Meeting` (id, person_name, created_at) and `GoalResults[]` (id, goal_id, score, feedback). */
export function renderStandalone(row: AnalysisWithMeeting, results: GoalResultRow[]) {
  return {
    ...commonFields(row),
    Meeting: {
      id: row.meeting_id,
      person_name: row.person_name,
      created_at: row.meeting_created_at.toISOString(),
    },
    GoalResults: results.map((result) => ({
      id: result.id,
      goal_id: result.goal_id,
      score: result.score,
      score_min: result.score_min,
      score_max: result.score_max,
      feedback: result.feedback,
      sentence_ids: result.sentence_ids,
    })),
  };
}
export type StandaloneAnalysis = ReturnType<typeof renderStandalone>;

/** Embedded in GET /meetings/{id}: `goal_results[]` with the descriptions, score and original goal. */
export function renderEmbedded(row: AnalysisRow, results: GoalResultRow[]) {
  return {
    ...commonFields(row),
    goal_results: results.map((result) => ({
      short_description: result.short_description,
      long_description: result.long_description,
      score: result.score,
      score_min: result.score_min,
      score_max: result.score_max,
      feedback: result.feedback,
      sentence_ids: result.sentence_ids,
      goal: result.goal,
    })),
  };
}
export type EmbeddedAnalysis = ReturnType<typeof renderEmbedded>;

/** Lists as one string in the webhook payload: one entry per line. */
export const joinLines = (items: string[]): string => items.join('\n');

/** `data.analysis` of `session.analysis_complete`: strengths and growth areas as strings. */
export function renderWebhook(row: AnalysisRow, results: GoalResultRow[]): AnalysisData {
  return {
    analysis_id: row.id,
    average_score: row.average_score,
    total_score: row.total_score,
    summary: row.summary,
    call_summary: row.call_summary,
    strengths: joinLines(row.strengths),
    growth_areas: joinLines(row.growth_areas),
    recommendations: row.recommendations,
    goal_results: results.map((result) => ({
      goal: result.goal.name,
      result: { score: result.score, feedback: result.feedback },
    })),
    highlights: row.highlights,
    conversation_length: row.conversation_length,
  };
}
