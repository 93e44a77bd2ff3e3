// What the room and the agent runtime know about a meeting: the meeting, its scenario and its
// persona, loaded in one query. The welcome data rendered from it is all the room ever sees:
// never the prompt, goals, guardrails, memories or tool definitions.
import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import type { MeetingRow } from '../meetings/render.ts';
import { AVATARS, avatarImageUrl, VOICES } from '../personas/catalog.ts';
import type { MeetingControls } from '../scenarios/tables.ts';
import { liveRepository as repo } from './repository.ts';
import type { SpeechCapabilities } from './voice/connection-voice.ts';

/** Recording uploads are refused beyond this size (docs/realtime.md). */
export const RECORDING_MAX_BYTES = 500 * 1024 * 1024;

export interface MeetingContext {
  meeting: MeetingRow;
  scenario: {
    id: string;
    name: string;
    type: string;
    description: string | null;
    prompt: string;
    welcome_message: string;
    call_duration: number;
    recording_enabled: boolean;
    recording_consent_required: boolean;
    memory_enabled: boolean;
    language: string;
    meeting_controls: Partial<MeetingControls>;
  };
  persona: {
    id: string;
    name: string;
    job_title: string;
    demeanor: string;
    background: string | null;
    gender: 'male' | 'female' | null;
    voice_id: string;
    avatar_id: string | null;
    avatar_url: string | null;
  } | null;
  /** The scenario's goals, in order: for the recogniser's meeting vocabulary only. */
  goals: Array<{ name: string; description: string | null }>;
}

export async function loadMeetingContext(db: Kysely<DB>, meetingId: string): Promise<MeetingContext | null> {
  const meeting = await repo.findMeeting(db, meetingId);
  if (!meeting) return null;
  const scenario = await repo.contextScenario(db, meeting.scenario_id);
  const persona = scenario.persona_id ? await repo.contextPersona(db, scenario.persona_id) : undefined;
  const goals = await repo.contextGoals(db, meeting.account_id, meeting.scenario_id);
  const { persona_id: _personaId, ...scenarioFields } = scenario;
  return {
    meeting,
    scenario: { ...scenarioFields, meeting_controls: scenario.meeting_controls ?? {} },
    persona: persona ?? null,
    goals,
  };
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The welcome data of GET /v1/rooms/{id} (and the body of `joined`). */
export function renderWelcome(
  context: MeetingContext,
  publicUrl: string,
  now: Date,
  speech: SpeechCapabilities,
) {
  const { meeting, scenario, persona } = context;
  const voice = persona ? VOICES.find((v) => v.id === persona.voice_id) : undefined;
  const avatar = persona?.avatar_id ? AVATARS.find((a) => a.id === persona.avatar_id) : undefined;
  const controls = scenario.meeting_controls;
  return {
    meeting: {
      id: meeting.id,
      status: meeting.status,
      person_name: meeting.person_name,
      started_at: iso(meeting.started_at),
      ends_at: iso(meeting.deadline_at),
      ended_at: iso(meeting.ended_at),
      end_reason: meeting.end_reason,
      duration_limit_seconds: scenario.call_duration * 60,
    },
    scenario: { name: scenario.name, description: scenario.description, type: scenario.type },
    persona: persona
      ? {
          name: persona.name,
          job_title: persona.job_title,
          avatar_url: avatar ? avatarImageUrl(publicUrl, avatar) : persona.avatar_url,
          gender: persona.gender,
          voice: voice
            ? {
                id: voice.id,
                name: voice.name,
                language: voice.language,
                browser_voice_hints: [...voice.browser_voice_hints],
                tts_voice: voice.tts_voice,
              }
            : null,
        }
      : null,
    recording: {
      enabled: scenario.recording_enabled,
      consent_required: scenario.recording_consent_required,
      max_bytes: RECORDING_MAX_BYTES,
    },
    controls: {
      allow_participant_end: controls.allow_participant_end ?? true,
      show_timer: controls.show_timer ?? true,
      share_results_with_participant: controls.share_results_with_participant ?? false,
    },
    speech,
    live_path: `/v1/rooms/${meeting.id}/live`,
    server_time: now.toISOString(),
  };
}
