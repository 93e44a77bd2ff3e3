// The participant's results after the call (GET /v1/rooms/{meetingId}/results, docs/room.md
// "Results"): only when the scenario shares them, only once the meeting has ended (goals stay
// invisible during the call, spec rule 10), and only what helps the participant — the learner
// report (reports/report.ts: each goal's name, score, feedback and the participant's own sentences
// it rests on, strengths, growth areas, what to practise next, the coach's comment) — never the
// goal's description, instructions, the summary written for the owner or the speech analytics.
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import type { RoomMeeting } from '../meetings/room-token.ts';
import { coachComment, reportStatus, scoredReport } from '../reports/report.ts';
import { loadMeetingContext } from './context.ts';

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
  const status = reportStatus(meeting.analysis_status);
  if (status !== 'ready') return { status, results: null };
  const scored = await scoredReport(db, room.account_id, room.id);
  if (!scored) return { status: 'pending' as const, results: null };
  const { average_score: _average, ...results } = scored;
  return { status, results: { ...results, coach_comment: await coachComment(db, room.account_id, room.id) } };
}
