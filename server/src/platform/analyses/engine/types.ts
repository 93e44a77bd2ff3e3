// Shared shapes of post-meeting analysis. Pure data: no database, no HTTP.

/** How a participant sentence reached the meeting: spoken (speech recognition) or typed. */
export type InputMode = 'voice' | 'typed';

/** One stored transcript sentence (a row of `transcript_sentences`) inside a turn. */
export interface TranscriptSentence {
  /** The sentence id of the transcript API. */
  id: number;
  message: string;
  startSeconds: number;
  /** When the sentence ended, if the client reported it. */
  endSeconds: number | null;
  /** Null when unknown (older transcripts, persona sentences): treated as voice. */
  input: InputMode | null;
}

/** One transcript turn. `user` is the participant; `agent` is the AI persona. */
export interface TranscriptTurn {
  speaker: 'user' | 'agent';
  message: string;
  /** Offset of the turn from the start of the meeting, in seconds. */
  startSeconds: number;
  /**
   * The stored sentences the turn joins, when known. They carry the ids goal results cite, the
   * input mode (voice or typed) and the timings speech rates use.
   */
  sentences?: TranscriptSentence[];
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
  /**
   * Occurrences in spoken sentences per minute of speaking time, rounded to 2 decimals; null when
   * the participant only typed (typed text has no speech rate).
   */
  per_minute: number | null;
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
  /** Minutes the participant spent speaking (spoken sentences only), rounded to 2 decimals. */
  participant_speaking_minutes: number;
  /** How the participant's sentences came in: `none` when the participant said nothing. */
  participant_input: 'voice' | 'typed' | 'mixed' | 'none';
}

/** The result of evaluating one goal. */
export interface GoalEvaluation {
  goal_id: string;
  goal_name: string;
  score: number;
  short_description: string;
  long_description: string;
  feedback: string;
  /** Ids of the transcript sentences the result rests on, in transcript order (empty when unknown). */
  sentence_ids: number[];
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
