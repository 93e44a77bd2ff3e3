import type { Generated } from 'kysely';
import type { Json, Timestamp } from '../../core/db/schema.ts';
import type { Highlight, SpeechMetric } from './engine/types.ts';

/** The goal as it was defined when it was scored (the embedded shape's `goal`). */
export interface GoalSnapshot {
  id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  metrics: Record<string, unknown> | null;
  scenario_id: string | null;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export type Evaluator = 'llm' | 'offline';

/** Analyses and their goal results (migration 0040). */
export interface AnalysisTables {
  analyses: {
    id: string;
    meeting_id: string;
    account_id: string;
    scenario_id: string;
    evaluator: Evaluator;
    /** Why the offline evaluator stood in for the configured model (migration 0042); else null. */
    evaluator_reason: string | null;
    model: string | null;
    title: string;
    summary: string;
    call_summary: string;
    average_score: number | null;
    total_score: number | null;
    strengths: Json<string[]>;
    growth_areas: Json<string[]>;
    recommendations: Json<string[]>;
    highlights: Json<Highlight[]>;
    conversation_length: number;
    filler_words: Json<SpeechMetric>;
    weak_words: Json<SpeechMetric>;
    repetitions: Json<SpeechMetric>;
    sentence_starters: Json<SpeechMetric>;
    participant_word_count: number;
    participant_speaking_minutes: number;
    participant_input: Generated<'voice' | 'typed' | 'mixed' | 'none'>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  analysis_goal_results: {
    id: string;
    analysis_id: string;
    account_id: string;
    goal_id: string | null;
    goal: Json<GoalSnapshot>;
    score: number;
    score_min: number;
    score_max: number;
    short_description: string;
    long_description: string;
    feedback: string;
    /** Transcript sentence ids the result rests on (migration 0042). */
    sentence_ids: Json<number[]>;
    position: number;
    created_at: Timestamp;
  };
}

declare module '../../core/db/schema.ts' {
  interface DB extends AnalysisTables {}
}
