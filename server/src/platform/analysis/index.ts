// Pure (no database, no HTTP) parts of post-meeting analysis. See docs/analysis.md.

export { gatherEvidence, type TranscriptEvidence } from './evidence.ts';
export { formatOffset } from './format-offset.ts';
export { extractMemoriesOffline, MAX_MEMORY_LENGTH } from './memories.ts';
export { evaluateGoalsOffline, goalKeywords } from './offline-evaluator.ts';
export { type OfflineSummaryInput, summarizeOffline } from './offline-summary.ts';
export { DEFAULT_SCORE_RANGE, parseScoreRange } from './score-range.ts';
export { computeSpeechAnalytics, participantSpeakingSeconds } from './speech-analytics.ts';
export type {
  GoalDefinition,
  GoalEvaluation,
  Highlight,
  SpeechAnalytics,
  SpeechMetric,
  SummaryContent,
  TranscriptTurn,
  WordStat,
} from './types.ts';
