import type { Highlight } from '../analyses/engine/types.ts';
import type { renderParticipant } from '../meetings/render.ts';

/**
 * The platform's event catalog. `meeting.started` is accepted in subscriptions (the spec lists
 * it as planned) but nothing ever emits it, which the emitter's types enforce.
 */
export const FIRING_EVENT_TYPES = [
  'meeting.created',
  'meeting.ended',
  'participant.joined',
  'participant.left',
  'transcript.ready',
  'recording.ready',
  'session.analysis_complete',
  'analysis.failed',
  'meeting.deleted',
  'assignment.completed',
] as const;

export const SUBSCRIBABLE_EVENT_TYPES = [...FIRING_EVENT_TYPES, 'meeting.started'] as const;

/**
 * When each event fires, in one line: the OpenAPI `webhooks` section, docs/webhooks.md and
 * `GET /v1/webhooks/event-types` all say it with these words.
 */
export const EVENT_DESCRIPTIONS: Record<SubscribableEventType, string> = {
  'meeting.created': 'A meeting is created through `POST /meetings`.',
  'meeting.ended': 'The meeting’s `ended_at` is set, before analysis.',
  'participant.joined': 'A participant’s `joined_at` goes from null to set.',
  'participant.left': 'A participant’s `left_at` goes from null to set.',
  'transcript.ready': 'The sentenced transcript is stored.',
  'recording.ready': 'The recording record is created.',
  'session.analysis_complete': 'The analysis with goal scores is saved.',
  'analysis.failed': 'The analysis pipeline errored.',
  'meeting.deleted':
    'A meeting and its transcript, recording, analysis and feedback were deleted (`DELETE /meetings/{id}` or the workspace’s retention).',
  'assignment.completed':
    'A person’s first meeting started from their assigned-practice link has ended (docs/assignments.md).',
  'meeting.started': 'Planned: accepted in subscriptions, never sent.',
};
export const ALL_EVENTS_WILDCARD = '*';

export type PlatformEventType = (typeof FIRING_EVENT_TYPES)[number];
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

const subscribable = new Set<string>([...SUBSCRIBABLE_EVENT_TYPES, ALL_EVENTS_WILDCARD]);

export function isSubscribableEvent(name: string): boolean {
  return subscribable.has(name);
}

/** Why a meeting was deleted: `DELETE /meetings/{id}`, or the workspace's `meeting_retention_days`. */
export type MeetingDeletionReason = 'api' | 'retention';

/** Every event's data carries the meeting and its scenario. */
export interface MeetingRef {
  meeting_id: string;
  scenario_id: string;
}

/** The participant as the API renders it (`Participant`). */
export type ParticipantData = ReturnType<typeof renderParticipant>;

/** One goal's score in `session.analysis_complete`: the goal's name, not the whole goal. */
export interface WebhookGoalResultData {
  goal: string;
  result: { score: number; feedback: string };
}

/** `data.analysis` of `session.analysis_complete` (its own shape, not the `/analyses` one). */
export interface AnalysisData {
  analysis_id: string;
  average_score: number | null;
  total_score: number | null;
  summary: string | null;
  call_summary: string | null;
  /** One strength per line (the API's arrays, joined with `\n`). */
  strengths: string;
  /** One growth area per line. */
  growth_areas: string;
  recommendations: string[];
  goal_results: WebhookGoalResultData[];
  highlights: Highlight[];
  /** Seconds. */
  conversation_length: number;
}

/** data beyond meeting_id and scenario_id, per event (spec "Event types"). */
export interface PlatformEventData {
  'meeting.created': MeetingRef;
  'meeting.ended': MeetingRef & { ended_at: string; duration_seconds: number };
  'participant.joined': MeetingRef & { participant: ParticipantData };
  'participant.left': MeetingRef & { participant: ParticipantData };
  'transcript.ready': MeetingRef & { transcript_id: number; sentence_count: number };
  'recording.ready': MeetingRef & { recording_id: string };
  'session.analysis_complete': MeetingRef & { analysis: AnalysisData };
  'analysis.failed': MeetingRef & { error: string };
  'meeting.deleted': MeetingRef & { deleted_at: string; reason: MeetingDeletionReason };
  'assignment.completed': MeetingRef & { assignment_id: string; person_id: string; completed_at: string };
}
