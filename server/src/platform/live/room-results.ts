// The participant's results after the call (GET /v1/rooms/{meetingId}/results, docs/room.md
// "Results"): only when the scenario shares them, only once the meeting has ended (goals stay
// invisible during the call, spec rule 10), and only what helps the participant — each goal's
// name, score and feedback, strengths, growth areas and what to practise next — never the goal's
// description, instructions, the summary written for the owner or the speech analytics.
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import { analysisRepository, type GoalResultRow } from '../analyses/repository.ts';
import type { RoomMeeting } from '../meetings/room-token.ts';
import { loadMeetingContext } from './context.ts';

/** Lines of "practise next": the weakest goals' feedback first, then the analysis's recommendations. */
export const PRACTISE_NEXT_MAX = 4;
/** Goals scored at or above this share of their range are not singled out for practice. */
const WELL_DONE_FRACTION = 0.8;
const WEAKEST_GOALS = 2;

export type ResultsStatus = 'pending' | 'ready' | 'unavailable';

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

export async function loadRoomResults(db: Kysely<DB>, room: RoomMeeting) {
  const context = await loadMeetingContext(db, room.id);
  if (!context)
    throw new AppError('resource_not_found', 'No such meeting, or the room token does not open it.');
  const { meeting, scenario } = context;
  if (scenario.meeting_controls.share_results_with_participant !== true) {
    throw new AppError(
      'results_not_shared',
      'The organiser of this meeting does not share results with participants.',
    );
  }
  if (meeting.status !== 'ended') {
    throw new AppError('resource_conflict', 'Results are shown once the meeting has ended.', {
      param: 'meetingId',
    });
  }
  const status: ResultsStatus =
    meeting.analysis_status === 'completed'
      ? 'ready'
      : meeting.analysis_status === 'failed'
        ? 'unavailable'
        : 'pending';
  if (status !== 'ready') return { status, results: null };
  const analysis = await analysisRepository.byMeeting(db, room.account_id, room.id);
  if (!analysis) return { status: 'pending' as const, results: null };
  const goals = (await analysisRepository.goalResults(db, [analysis.id])).get(analysis.id) ?? [];
  return {
    status,
    results: {
      goals: goals.map((row) => ({
        name: row.goal.name,
        score: row.score,
        score_min: row.score_min,
        score_max: row.score_max,
        feedback: row.feedback,
      })),
      strengths: analysis.strengths,
      growth_areas: analysis.growth_areas,
      practise_next: practiseNext(goals, analysis.recommendations),
      completed_at: analysis.updated_at.toISOString(),
    },
  };
}
