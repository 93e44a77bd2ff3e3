import { type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../../core/db/errors.ts';
import type { DB } from '../../core/db/schema.ts';
import type { SentenceRow } from '../meetings/render.ts';
import type { SentenceCut, SentenceProvider, Speaker } from './tables.ts';

export interface SentenceInsert {
  transcriptId: number;
  meetingId: string;
  accountId: string;
  speaker: Speaker;
  message: string;
  startMs: number;
  endMs: number | null;
  /** How a participant sentence came in (`voice` or `typed`); null when unknown. */
  input?: 'voice' | 'typed' | null;
  /** Persona sentences: who spoke it. */
  provider: SentenceProvider | null;
  /** Participant sentences: the room's id for the utterance (stored once per transcript). */
  clientId?: string | null;
  /** Persona sentences: what cut the reply, if anything did. */
  cut?: SentenceCut | null;
  now: Date;
}

/** Usage accumulated by a session since its last write. */
export interface UsageIncrement {
  promptTokens: number;
  completionTokens: number;
  turns: number;
  /** Completed persona turns per answering provider (the welcome is counted in `turns` only). */
  answered: Record<Exclude<SentenceProvider, 'welcome'>, number>;
}

/**
 * What the live engine reads and writes. Meetings are addressed by id alone: the room token (or
 * the session holding the meeting) has already established whose meeting it is.
 */
export const liveRepository = {
  findMeeting(db: Kysely<DB>, meetingId: string) {
    return db.selectFrom('meetings').selectAll().where('id', '=', meetingId).executeTakeFirst();
  },
  /** The scenario fields the room and the agent runtime use. */
  contextScenario(db: Kysely<DB>, scenarioId: string) {
    return db
      .selectFrom('scenarios')
      .select([
        'id',
        'name',
        'type',
        'description',
        'prompt',
        'welcome_message',
        'call_duration',
        'recording_enabled',
        'recording_consent_required',
        'memory_enabled',
        'language',
        'meeting_controls',
        'persona_id',
      ])
      .where('id', '=', scenarioId)
      .executeTakeFirstOrThrow();
  },
  /** The scenario's goals as written (their words are what the participant is likely to say). */
  contextGoals(db: Kysely<DB>, accountId: string, scenarioId: string) {
    return db
      .selectFrom('scenario_goals')
      .innerJoin('goals', 'goals.id', 'scenario_goals.goal_id')
      .select(['goals.name', 'goals.description'])
      .where('scenario_goals.account_id', '=', accountId)
      .where('scenario_goals.scenario_id', '=', scenarioId)
      .orderBy('scenario_goals.position')
      .execute();
  },
  contextPersona(db: Kysely<DB>, personaId: string) {
    return db
      .selectFrom('personas')
      .select([
        'id',
        'name',
        'job_title',
        'demeanor',
        'background',
        'gender',
        'voice_id',
        'avatar_id',
        'avatar_url',
      ])
      .where('id', '=', personaId)
      .executeTakeFirst();
  },
  /** The state the room shows next to its transcript. */
  meetingState(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select(['status', 'end_reason'])
      .where('id', '=', meetingId)
      .executeTakeFirstOrThrow();
  },
  /** How the meeting ended, once it has. */
  endState(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select(['ended_at', 'duration_seconds', 'end_reason'])
      .where('id', '=', meetingId)
      .executeTakeFirst();
  },
  /** Stores the sealed prompt unless one is already stored (the first writer wins). */
  sealPromptOnce(db: Kysely<DB>, meetingId: string, sealed: string) {
    return db
      .updateTable('meetings')
      .set({ agent_prompt_sealed: sealed })
      .where('id', '=', meetingId)
      .where('agent_prompt_sealed', 'is', null)
      .execute();
  },
  sealedPrompt(db: Kysely<DB>, meetingId: string) {
    return db
      .selectFrom('meetings')
      .select('agent_prompt_sealed')
      .where('id', '=', meetingId)
      .executeTakeFirstOrThrow();
  },
  /** The newest `limit` facts remembered under the tag in the account. */
  memoryFacts(db: Kysely<DB>, accountId: string, tag: string, limit: number) {
    return db
      .selectFrom('memories')
      .select('content')
      .where('account_id', '=', accountId)
      .where('user_memory_tag', '=', tag)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },
  addUsage(db: Kysely<DB>, meetingId: string, usage: UsageIncrement, now: Date) {
    return db
      .updateTable('meeting_usage')
      .set((eb) => ({
        prompt_tokens: eb('prompt_tokens', '+', usage.promptTokens),
        completion_tokens: eb('completion_tokens', '+', usage.completionTokens),
        turns: eb('turns', '+', usage.turns),
        custom_agent_turns: eb('custom_agent_turns', '+', usage.answered.custom_agent),
        llm_turns: eb('llm_turns', '+', usage.answered.llm),
        offline_turns: eb('offline_turns', '+', usage.answered.offline),
        apology_turns: eb('apology_turns', '+', usage.answered.apology),
        updated_at: now,
      }))
      .where('meeting_id', '=', meetingId)
      .execute();
  },
  /**
   * Appends a sentence with the next sequence number of its transcript, unless the transcript was
   * already completed (the meeting was finalised): then nothing is written and null comes back.
   * A participant sentence whose client id the transcript already holds (a room resending what it
   * was not told was stored) is not written again: the stored one comes back, `duplicate`.
   */
  async appendSentence(
    db: Kysely<DB>,
    input: SentenceInsert,
  ): Promise<{ row: SentenceRow; duplicate: boolean } | null> {
    const clientId = input.clientId ?? null;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows } = await sql<SentenceRow>`
          insert into transcript_sentences (transcript_id, meeting_id, account_id, speaker, message, start_ms,
            end_ms, input, sequence_number, provider, client_id, cut, created_at)
          select t.id, ${input.meetingId}::uuid, ${input.accountId}::uuid, ${input.speaker}, ${input.message},
            ${Math.round(input.startMs)}::integer, ${input.endMs === null ? null : Math.round(input.endMs)}::integer,
            ${input.input ?? null}::text,
            coalesce((select max(s.sequence_number) from transcript_sentences s where s.transcript_id = t.id), 0) + 1,
            ${input.provider}::text, ${clientId}::text, ${input.cut ?? null}::text, ${input.now}::timestamptz
          from transcripts t
          where t.id = ${input.transcriptId} and t.status = 'in_progress'
            and (${clientId}::text is null or not exists (
              select 1 from transcript_sentences s where s.transcript_id = t.id and s.client_id = ${clientId}::text))
          returning *`.execute(db);
        if (rows[0]) return { row: rows[0], duplicate: false };
        if (clientId === null) return null;
        const stored = await db
          .selectFrom('transcript_sentences')
          .selectAll()
          .where('transcript_id', '=', input.transcriptId)
          .where('client_id', '=', clientId)
          .executeTakeFirst();
        return stored ? { row: stored, duplicate: true } : null;
      } catch (error) {
        // Two writers took the same number (a hand-over between instances), or stored the same
        // utterance at once: the next attempt takes the next number or finds the stored one.
        if (attempt < 3 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  },
};
