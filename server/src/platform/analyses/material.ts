// Everything an analysis reads about one meeting: the meeting, its scenario and persona, the
// scenario's active goals, the participant and the sentenced transcript grouped into turns.
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import type { GoalDefinition, TranscriptSentence, TranscriptTurn } from './engine/types.ts';
import { materialRepository as repo } from './material-repository.ts';
import type { GoalSnapshot } from './tables.ts';

export type MeetingRow = Selectable<DB['meetings']>;
export type ScenarioRow = Selectable<DB['scenarios']>;
type GoalRow = Selectable<DB['goals']>;

export interface MeetingMaterial {
  meeting: MeetingRow;
  scenario: ScenarioRow;
  persona: { name: string; job_title: string | null } | null;
  /** Active goals linked to the scenario, in its order. */
  goals: GoalRow[];
  participant: { id: string; name: string | null } | null;
  transcript: { id: number; status: 'in_progress' | 'completed' } | null;
  turns: TranscriptTurn[];
}

export async function loadMaterial(db: Kysely<DB>, meeting: MeetingRow): Promise<MeetingMaterial> {
  const [scenario, goals, participant, transcript] = await Promise.all([
    repo.scenario(db, meeting.scenario_id),
    repo.activeGoals(db, meeting.scenario_id),
    repo.participant(db, meeting.id),
    repo.transcript(db, meeting.id),
  ]);
  const persona = scenario.persona_id ? ((await repo.persona(db, scenario.persona_id)) ?? null) : null;
  const sentences = transcript ? await repo.sentences(db, transcript.id) : [];
  return {
    meeting,
    scenario,
    persona,
    goals,
    participant: participant ?? null,
    transcript: transcript ? { id: Number(transcript.id), status: transcript.status } : null,
    turns: toTurns(sentences),
  };
}

/**
 * Sentences become turns: consecutive sentences of one speaker are one turn, starting at its
 * first sentence. The analysis rules count turns (answer length, substantive answers), not
 * sentences; each turn keeps its sentences (ids, timings, voice or typed) for the evidence.
 */
export function toTurns(
  sentences: Array<{
    id?: number | string;
    speaker: 'user' | 'agent';
    message: string;
    start_ms: number;
    end_ms?: number | null;
    input?: 'voice' | 'typed' | null;
  }>,
): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  for (const sentence of sentences) {
    const message = sentence.message.trim();
    if (!message) continue;
    const stored: TranscriptSentence[] =
      sentence.id === undefined
        ? []
        : [
            {
              id: Number(sentence.id),
              message,
              startSeconds: sentence.start_ms / 1000,
              endSeconds: sentence.end_ms == null ? null : sentence.end_ms / 1000,
              input: sentence.input ?? null,
            },
          ];
    const last = turns[turns.length - 1];
    if (last && last.speaker === sentence.speaker) {
      last.message = `${last.message} ${message}`;
      last.sentences?.push(...stored);
    } else {
      turns.push({
        speaker: sentence.speaker,
        message,
        startSeconds: sentence.start_ms / 1000,
        ...(stored.length > 0 ? { sentences: stored } : {}),
      });
    }
  }
  return turns;
}

export function goalDefinition(row: GoalRow): GoalDefinition {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    active: row.active,
  };
}

export function goalSnapshot(row: GoalRow): GoalSnapshot {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    metrics: row.metrics ?? null,
    scenario_id: row.scenario_id,
    active: row.active,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Seconds of conversation: the meeting's duration, else up to the last sentence. */
export function conversationSeconds(material: MeetingMaterial): number {
  if (material.meeting.duration_seconds && material.meeting.duration_seconds > 0) {
    return material.meeting.duration_seconds;
  }
  const last = material.turns[material.turns.length - 1];
  return last ? Math.round(last.startSeconds) : 0;
}
