// The learner report of one meeting (docs/reports.md): what the participant is handed after a
// practice — each goal's score with the sentences of theirs it rests on, the feedback, strengths,
// growth areas, what to practise next and the coach's comment. The dashboard prints it; the room
// shows it to the participant when the scenario shares results (live/room-results.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { analysisRepository, type GoalResultRow } from '../analyses/repository.ts';
import { formatStartDuration } from '../meetings/render.ts';
import { reportRepository as repo } from './repository.ts';

/** Lines of "practise next": the weakest goals' feedback first, then the analysis's recommendations. */
export const PRACTISE_NEXT_MAX = 4;
/** Quotes per goal: enough to recognise the moment, short enough to print. */
export const EVIDENCE_MAX = 3;
/** Goals scored at or above this share of their range are not singled out for practice. */
const WELL_DONE_FRACTION = 0.8;
const WEAKEST_GOALS = 2;

export type ReportStatus = 'pending' | 'ready' | 'unavailable';

const fraction = (row: GoalResultRow) =>
  row.score_max > row.score_min ? (row.score - row.score_min) / (row.score_max - row.score_min) : 1;

/** The weakest goals (below WELL_DONE_FRACTION) with their feedback, then the recommendations. */
export function practiseNext(
  goals: GoalResultRow[],
  recommendations: string[],
): Array<{ goal: string | null; text: string }> {
  const weakest = goals
    .filter((row) => fraction(row) < WELL_DONE_FRACTION && row.feedback.trim())
    .sort((a, b) => fraction(a) - fraction(b) || a.position - b.position)
    .slice(0, WEAKEST_GOALS)
    .map((row) => ({ goal: row.goal.name, text: row.feedback.trim() }));
  const advice = recommendations
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => ({ goal: null, text }));
  return [...weakest, ...advice].slice(0, PRACTISE_NEXT_MAX);
}

export function reportStatus(analysisStatus: string | null): ReportStatus {
  if (analysisStatus === 'completed') return 'ready';
  return analysisStatus === 'failed' ? 'unavailable' : 'pending';
}

/** The coach's comment with its author's name (null once they have left), or null. */
export async function coachComment(db: Kysely<DB>, accountId: string, meetingId: string) {
  const row = await repo.comment(db, accountId, meetingId);
  return row
    ? { text: row.text, author: row.author_name, updated_at: new Date(row.updated_at).toISOString() }
    : null;
}

/** The scored part of the report, or null while there is no completed analysis. */
export async function scoredReport(db: Kysely<DB>, accountId: string, meetingId: string) {
  const analysis = await analysisRepository.byMeeting(db, accountId, meetingId);
  if (!analysis) return null;
  const goals = (await analysisRepository.goalResults(db, [analysis.id])).get(analysis.id) ?? [];
  const quoted = await repo.participantSentences(db, meetingId, [
    ...new Set(goals.flatMap((row) => row.sentence_ids ?? [])),
  ]);
  const byId = new Map(quoted.map((sentence) => [Number(sentence.id), sentence]));
  return {
    goals: goals.map((row) => ({
      name: row.goal.name,
      score: row.score,
      score_min: row.score_min,
      score_max: row.score_max,
      feedback: row.feedback,
      // The participant's own words the score rests on, in the order they were said.
      evidence: (row.sentence_ids ?? [])
        .map((id) => byId.get(Number(id)))
        .filter((sentence) => sentence !== undefined)
        .sort((a, b) => a.start_ms - b.start_ms)
        .slice(0, EVIDENCE_MAX)
        .map((sentence) => ({
          sentence_id: Number(sentence.id),
          text: sentence.message,
          start_ms: sentence.start_ms,
          start: formatStartDuration(sentence.start_ms),
        })),
    })),
    average_score: analysis.average_score,
    strengths: analysis.strengths,
    growth_areas: analysis.growth_areas,
    practise_next: practiseNext(goals, analysis.recommendations),
    completed_at: analysis.updated_at.toISOString(),
  };
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** GET /v1/meetings/{id}/report: the whole report, for the coach and for printing; null: no meeting. */
export async function learnerReport(db: Kysely<DB>, accountId: string, meetingId: string) {
  const meeting = await repo.meeting(db, accountId, meetingId);
  if (!meeting) return null;
  const scored =
    reportStatus(meeting.analysis_status) === 'ready' ? await scoredReport(db, accountId, meetingId) : null;
  // Completed but its row not there (a re-run replacing it): as the room says, not ready yet.
  const status: ReportStatus = scored
    ? 'ready'
    : reportStatus(meeting.analysis_status) === 'unavailable'
      ? 'unavailable'
      : 'pending';
  const started = meeting.started_at ? new Date(meeting.started_at).getTime() : null;
  const ended = meeting.ended_at ? new Date(meeting.ended_at).getTime() : null;
  return {
    meeting: {
      id: meeting.id,
      status: meeting.status,
      person_id: meeting.person_id,
      person_name: meeting.person_name,
      scenario: { id: meeting.scenario_id, name: meeting.scenario_name },
      persona_name: meeting.persona_name,
      started_at: iso(meeting.started_at),
      ended_at: iso(meeting.ended_at),
      duration_seconds: started && ended ? Math.round((ended - started) / 1000) : null,
    },
    shared_with_participant: meeting.meeting_controls?.share_results_with_participant === true,
    status,
    results: scored,
    coach_comment: await coachComment(db, accountId, meetingId),
  };
}
