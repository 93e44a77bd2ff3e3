import type { Selectable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export type MeetingRow = Selectable<DB['meetings']>;
export type ParticipantRow = Selectable<DB['meeting_participants']>;
export type SentenceRow = Selectable<DB['transcript_sentences']>;

/** `MM:SS` from the meeting start; minutes keep counting past an hour (`75:03`). */
export function formatStartDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function renderParticipant(row: ParticipantRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    source: row.source,
    joined_at: iso(row.joined_at),
    left_at: iso(row.left_at),
    is_self: row.is_self,
  };
}

export type RenderedSentence = ReturnType<typeof renderSentence>;

export function renderSentence(row: SentenceRow) {
  return {
    id: Number(row.id),
    transcript_id: Number(row.transcript_id),
    speaker: row.speaker,
    message: row.message,
    start_duration: formatStartDuration(row.start_ms),
    start_ms: row.start_ms,
    sequence_number: row.sequence_number,
    provider: row.provider,
  };
}

/**
 * The room and the meeting page. With the room token (the create response, the only answer that
 * knows it) `meeting_url` carries it, so the link opens as returned; later reads give the plain
 * page, which sends whoever opens it to the dashboard. `room_meeting_url` stays plain as the spec
 * says: it is loaded with `?t=`.
 */
export function roomUrls(publicUrl: string, meetingId: string, roomToken?: string) {
  return {
    room_meeting_url: `${publicUrl}/room/${meetingId}`,
    meeting_url: `${publicUrl}/meetings/${meetingId}${roomToken ? `?t=${encodeURIComponent(roomToken)}` : ''}`,
  };
}
