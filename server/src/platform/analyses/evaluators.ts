// Who writes the goal results, summaries and memory facts: the platform LLM when one is
// configured (structured JSON checked against a schema, one repair round), else the offline rules.
// Speech analytics never come from here: they are always computed locally.
import { Type } from 'typebox';
import type { LlmClient } from '../../core/llm/index.ts';
import { leadOfScenarioType } from './engine/conversation-evidence.ts';
import { formatOffset } from './engine/format-offset.ts';
import { evaluateGoalsOffline } from './engine/offline-goal-scoring.ts';
import { extractMemoriesOffline } from './engine/offline-memory-facts.ts';
import { summarizeOffline } from './engine/offline-summary.ts';
import { parseScoreRange } from './engine/score-range.ts';
import type {
  GoalDefinition,
  GoalEvaluation,
  SpeechAnalytics,
  SummaryContent,
  TranscriptTurn,
} from './engine/types.ts';
import type { Evaluator } from './tables.ts';

export interface EvaluationInput {
  scenarioName: string;
  scenarioType: string;
  scenarioDescription: string | null;
  personaName: string;
  personaTitle: string | null;
  participantName: string | null;
  /** Active goals only, in the scenario's order. */
  goals: GoalDefinition[];
  turns: TranscriptTurn[];
  durationSeconds: number;
  analytics: SpeechAnalytics;
}

export interface EvaluationOutput {
  evaluations: GoalEvaluation[];
  summary: SummaryContent;
  evaluator: Evaluator;
  /** Why the offline evaluator wrote the analysis in place of the configured model; else null. */
  evaluatorReason: string | null;
  model: string | null;
}

export interface AnalysisEvaluator {
  readonly kind: Evaluator;
  evaluate(input: EvaluationInput, signal?: AbortSignal): Promise<EvaluationOutput>;
  /** Facts about the participant learned in the call, one per entry. */
  extractMemories(input: EvaluationInput, signal?: AbortSignal): Promise<string[]>;
}

/** The embedded default: the deterministic rules of engine/. */
export function offlineEvaluator(): AnalysisEvaluator {
  return {
    kind: 'offline',
    async evaluate(input) {
      const evaluations = evaluateGoalsOffline(input.goals, input.turns, input.analytics, {
        lead: leadOfScenarioType(input.scenarioType),
      });
      const summary = summarizeOffline({
        scenarioName: input.scenarioName,
        personaName: input.personaName,
        participantName: input.participantName,
        turns: input.turns,
        evaluations,
        analytics: input.analytics,
        durationSeconds: input.durationSeconds,
        goals: input.goals,
      });
      return { evaluations, summary, evaluator: 'offline', evaluatorReason: null, model: null };
    },
    async extractMemories(input) {
      return extractMemoriesOffline(input.turns);
    },
  };
}

const TIMESTAMP_PATTERN = '^[0-9]{2,}:[0-5][0-9]$';
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const list = (maxItems: number) => Type.Array(text(1000), { minItems: 1, maxItems });

/** What the model must answer for goals and summaries. */
export const LlmAnalysisSchema = Type.Object({
  title: text(200),
  summary: text(5000),
  call_summary: text(5000),
  strengths: list(10),
  growth_areas: list(10),
  recommendations: list(10),
  highlights: Type.Array(
    Type.Object({ title: text(300), timestamp: Type.String({ pattern: TIMESTAMP_PATTERN }) }),
    {
      maxItems: 10,
    },
  ),
  goal_results: Type.Array(
    Type.Object({
      goal_id: Type.String(),
      score: Type.Number(),
      short_description: text(500),
      long_description: text(5000),
      feedback: text(5000),
    }),
  ),
});

export const LlmMemorySchema = Type.Object({
  facts: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { maxItems: 50 }),
});

/** Transcript lines as the model reads them: `[MM:SS] Speaker: message`. */
export function transcriptText(input: EvaluationInput): string {
  const participant = input.participantName?.trim() || 'Participant';
  return input.turns
    .map(
      (turn) =>
        `[${formatOffset(turn.startSeconds)}] ${turn.speaker === 'user' ? `${participant} (participant)` : `${input.personaName} (persona)`}: ${turn.message}`,
    )
    .join('\n');
}

function goalBrief(goals: GoalDefinition[]) {
  return goals.map((goal) => {
    const range = parseScoreRange(goal.instructions);
    return {
      goal_id: goal.id,
      name: goal.name,
      description: goal.description ?? '',
      instructions: goal.instructions ?? '',
      score_min: range.min,
      score_max: range.max,
    };
  });
}

/** Semantic checks beyond the schema: every goal scored once, within its range. */
export function checkGoalResults(goals: GoalDefinition[], value: unknown): string[] {
  const problems: string[] = [];
  const results = (value as { goal_results: { goal_id: string; score: number }[] }).goal_results;
  const expected = new Map(goals.map((goal) => [goal.id, parseScoreRange(goal.instructions)]));
  const seen = new Set<string>();
  for (const [index, result] of results.entries()) {
    const range = expected.get(result.goal_id);
    if (!range) problems.push(`/goal_results/${index}/goal_id ${result.goal_id} is not one of the goals`);
    else if (seen.has(result.goal_id)) problems.push(`/goal_results/${index} repeats goal ${result.goal_id}`);
    else if (result.score < range.min || result.score > range.max) {
      problems.push(`/goal_results/${index}/score must be between ${range.min} and ${range.max}`);
    }
    seen.add(result.goal_id);
  }
  for (const id of expected.keys()) if (!seen.has(id)) problems.push(`/goal_results misses goal ${id}`);
  return problems;
}

const ANALYSIS_SYSTEM = [
  'You evaluate a recorded practice meeting between a participant and an AI persona.',
  'Judge only the participant, only from what the transcript shows. Score every goal exactly once,',
  'following its instructions, within its score_min..score_max range. Quote or cite the transcript',
  'in feedback. Highlights point at moments of the transcript with their [MM:SS] timestamp.',
  'Reply with one JSON object that matches the given schema and nothing else.',
].join(' ');

const MEMORY_SYSTEM = [
  'You extract durable facts about the participant of a meeting, to remember for their next call.',
  'Only facts the participant stated about themselves (work, role, background, location, goals,',
  'preferences); never facts about the persona, never guesses. Write each fact as one short',
  'third-person line without the name as subject (e.g. "Works at Acme as a data engineer.").',
  'Reply with one JSON object {"facts": [...]}; an empty list when nothing was learned.',
].join(' ');

function context(input: EvaluationInput): string {
  return [
    `Scenario: ${input.scenarioName} (${input.scenarioType})`,
    input.scenarioDescription ? `Scenario description: ${input.scenarioDescription}` : null,
    `Persona: ${input.personaName}${input.personaTitle ? `, ${input.personaTitle}` : ''}`,
    `Participant: ${input.participantName?.trim() || 'unknown name'}`,
    `Meeting length: ${formatOffset(input.durationSeconds)}`,
  ]
    .filter((line) => line !== null)
    .join('\n');
}

/** Goals and summaries from the platform LLM. */
export function llmEvaluator(client: LlmClient, timeoutMs = 90_000): AnalysisEvaluator {
  return {
    kind: 'llm',
    async evaluate(input, signal) {
      const { value } = await client.completeJson({
        schema: LlmAnalysisSchema,
        schemaName: 'meeting_analysis',
        signal,
        timeoutMs,
        temperature: 0.2,
        check: (reply) => checkGoalResults(input.goals, reply),
        messages: [
          { role: 'system', content: ANALYSIS_SYSTEM },
          {
            role: 'user',
            content: `${context(input)}\n\nGoals (JSON):\n${JSON.stringify(goalBrief(input.goals))}\n\nTranscript:\n${transcriptText(input)}`,
          },
        ],
      });
      const byId = new Map(value.goal_results.map((result) => [result.goal_id, result]));
      const evaluations: GoalEvaluation[] = input.goals.map((goal) => {
        const result = byId.get(goal.id)!;
        return {
          goal_id: goal.id,
          goal_name: goal.name,
          score: Math.round(result.score * 100) / 100,
          short_description: result.short_description,
          long_description: result.long_description,
          feedback: result.feedback,
          // The model is not asked to cite sentences; only the offline rubric lists them.
          sentence_ids: [],
        };
      });
      return {
        evaluations,
        summary: {
          title: value.title,
          summary: value.summary,
          call_summary: value.call_summary,
          strengths: value.strengths,
          growth_areas: value.growth_areas,
          recommendations: value.recommendations,
          highlights: value.highlights,
        },
        evaluator: 'llm',
        evaluatorReason: null,
        model: client.model,
      };
    },
    async extractMemories(input, signal) {
      const { value } = await client.completeJson({
        schema: LlmMemorySchema,
        schemaName: 'participant_facts',
        signal,
        timeoutMs,
        temperature: 0,
        messages: [
          { role: 'system', content: MEMORY_SYSTEM },
          { role: 'user', content: `${context(input)}\n\nTranscript:\n${transcriptText(input)}` },
        ],
      });
      return value.facts.map((fact) => fact.replace(/\s+/g, ' ').trim()).filter((fact) => fact.length > 0);
    },
  };
}
