// Shared shapes of post-meeting analysis. Pure data: no database, no HTTP.

/** One transcript turn. `user` is the participant; `agent` is the AI persona. */
export interface TranscriptTurn {
  speaker: 'user' | 'agent';
  message: string;
  /** Offset of the turn from the start of the meeting, in seconds. */
  startSeconds: number;
}

/** The parts of a goal that evaluation needs. */
export interface GoalDefinition {
  id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  active: boolean;
}

/** A word or phrase with how often it occurred. */
export interface WordStat {
  word: string;
  count: number;
}

/** One speech metric (filler words, weak words, repetitions or sentence starters). */
export interface SpeechMetric {
  /** Number of occurrences counted. */
  total: number;
  /** `total` divided by the participant's speaking minutes, rounded to 2 decimals. */
  per_minute: number;
  /** What was counted, most frequent first (ties by text). */
  items: { text: string; count: number }[];
  /** Up to 3 short verbatim snippets from the participant's speech. */
  examples: string[];
}

export interface SpeechAnalytics {
  filler_words: SpeechMetric;
  weak_words: SpeechMetric;
  repetitions: SpeechMetric;
  sentence_starters: SpeechMetric;
  participant_word_count: number;
  participant_speaking_minutes: number;
}

/** The result of evaluating one goal. */
export interface GoalEvaluation {
  goal_id: string;
  goal_name: string;
  score: number;
  short_description: string;
  long_description: string;
  feedback: string;
}

export interface Highlight {
  title: string;
  /** Offset into the meeting, `MM:SS`. */
  timestamp: string;
}

export interface SummaryContent {
  title: string;
  summary: string;
  call_summary: string;
  strengths: string[];
  growth_areas: string[];
  recommendations: string[];
  highlights: Highlight[];
}
