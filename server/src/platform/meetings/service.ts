import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import { type PageQuery, type Paginator, positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { type LookupFn, OutboundError, type OutboundPolicy, vetUrl } from '../../core/outbound/index.ts';
import { loadMeetingAnalysis } from '../analyses/service.ts';
import type { EventEmitter } from '../events/emitter.ts';
import type { PeopleService } from '../people/service.ts';
import type { ScenarioService } from '../scenarios/service.ts';
import type { MeetingDeletion } from './deletion.ts';
import type { MeetingLifecycle } from './lifecycle.ts';
import { listMeetings, type MeetingFilters } from './list-repository.ts';
import { renderParticipant, renderSentence, roomUrls } from './render.ts';
import { meetingRepository as repo } from './repository.ts';
import { newRoomToken } from './room-token.ts';
import type { EndReason } from './schemas.ts';
import type { AgentProviderKind, MeetingStatus } from './tables.ts';

const LIST = 'meetings';

export interface MeetingListInput extends PageQuery {
  scenario_id?: string;
  person_id?: string;
  status?: MeetingStatus;
  person_name?: string;
  created_after?: string;
  created_before?: string;
  q?: string;
}

export interface CreateMeetingInput {
  scenario_id: string;
  person_name?: string;
  person_email?: string;
  person_id?: string;
  person_external_id?: string;
  meeting_type?: 'regular' | 'end-user';
  note_context?: string;
  user_memory_tag?: string;
}

export interface MeetingServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  events: EventEmitter;
  lifecycle: MeetingLifecycle;
  deletion: MeetingDeletion;
  paginator: Paginator;
  publicUrl: string;
  /** The platform LLM's model when LLM_BASE_URL is configured. */
  llmModel: string | null;
  outboundPolicy: OutboundPolicy;
  lookup?: LookupFn;
  people: Pick<PeopleService, 'resolve'>;
}

export class MeetingService {
  constructor(private readonly deps: MeetingServiceDeps) {}

  /**
   * `options.tx`: the caller's transaction (an assigned practice counts its attempts in it);
   * `options.assignmentPersonId`: the assigned practice the meeting is an attempt of.
   */
  async create(
    principal: Principal,
    input: CreateMeetingInput,
    options: { tx?: Kysely<DB>; assignmentPersonId?: string } = {},
  ) {
    const { db, clock } = this.deps;
    // Inside the caller's transaction every read goes through it (PGlite has one connection).
    const scenario = isUuid(input.scenario_id)
      ? await repo.liveScenario(options.tx ?? db, principal.accountId, input.scenario_id)
      : undefined;
    if (!scenario) throw notFound('scenario', 'scenario_id');
    const provider = await this.providerFor(scenario);
    const { token, hash } = newRoomToken();
    const id = randomUUID();
    const participantId = randomUUID();
    const meetingType = input.meeting_type ?? 'regular';
    // A regular meeting is the member's own practice (its participant is_self), so their facts
    // follow them from call to call; an end-user meeting is for somebody outside the workspace.
    const memoryTag =
      input.user_memory_tag ??
      (meetingType === 'regular' && principal.membershipId
        ? `membership:${principal.membershipId}`
        : `participant:${participantId}`);
    const now = clock.now();
    const inTransaction = <T>(work: (tx: Kysely<DB>) => Promise<T>) =>
      options.tx ? work(options.tx) : db.transaction().execute(work);
    await inTransaction(async (tx) => {
      // The address given for the participant; a regular meeting's participant is the member.
      const member =
        meetingType === 'regular'
          ? await repo.member(tx, principal.accountId, principal.membershipId)
          : undefined;
      // A member's own address names them only when no external id names someone else.
      const email = input.person_email ?? (input.person_external_id ? null : (member?.email ?? null));
      const person = await this.deps.people.resolve(tx, principal.accountId, {
        person_id: input.person_id,
        external_id: input.person_external_id,
        email,
        name: input.person_name ?? member?.name,
      });
      // Someone else's meeting without a name takes their person's; a member's own keeps what was sent.
      const personName =
        input.person_name?.trim() || (meetingType === 'end-user' ? person?.name : null) || null;
      await repo.insert(tx, {
        id,
        account_id: principal.accountId,
        membership_id: principal.membershipId,
        scenario_id: scenario.id,
        person_id: person?.id ?? null,
        assignment_person_id: options.assignmentPersonId ?? null,
        person_name: personName,
        meeting_type: meetingType,
        note_context: input.note_context ?? null,
        user_memory_tag: input.user_memory_tag ?? null,
        memory_tag: memoryTag,
        agent_provider: provider,
        status: 'created',
        analysis_status: 'not_started',
        room_token_hash: hash,
        created_at: now,
        updated_at: now,
      });
      await repo.insertParticipant(tx, {
        id: participantId,
        meeting_id: id,
        account_id: principal.accountId,
        name: personName,
        email,
        is_self: meetingType === 'regular',
        client_info: null,
        recording_consent: null,
        created_at: now,
        updated_at: now,
      });
      await repo.insertTranscript(tx, {
        meeting_id: id,
        account_id: principal.accountId,
        scenario_id: scenario.id,
        language: scenario.language,
        created_at: now,
        updated_at: now,
      });
      await repo.insertUsage(tx, {
        meeting_id: id,
        account_id: principal.accountId,
        provider,
        model:
          provider === 'llm'
            ? this.deps.llmModel
            : provider === 'custom_agent'
              ? scenario.custom_agent_model
              : null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.events.emit(tx, {
        accountId: principal.accountId,
        event: 'meeting.created',
        data: { meeting_id: id, scenario_id: scenario.id },
      });
    });
    const urls = roomUrls(this.deps.publicUrl, id, token);
    return { id, ...urls, room_token: token, status: 'created' as const };
  }

  /** Custom agent when the scenario turns it on (its base_url vetted now), else the platform LLM, else offline. */
  private async providerFor(scenario: {
    custom_agent_enabled: boolean;
    custom_agent_base_url: string | null;
  }): Promise<AgentProviderKind> {
    if (scenario.custom_agent_enabled && scenario.custom_agent_base_url) {
      try {
        await vetUrl(scenario.custom_agent_base_url, this.deps.outboundPolicy, this.deps.lookup);
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        throw new AppError(
          'parameter_invalid',
          `The scenario's custom_agent_config.base_url cannot be used: ${error.message}. It must be a public HTTPS address.`,
          { param: 'custom_agent_config.base_url', cause: error },
        );
      }
      return 'custom_agent';
    }
    return this.deps.llmModel ? 'llm' : 'offline';
  }

  /** The meeting read; the nested Scenario is rendered by the scenarios module. */
  async get(principal: Principal, id: string, scenarios: Pick<ScenarioService, 'render'>) {
    const { db } = this.deps;
    const meeting = await this.find(principal, id);
    const [scenarioRow, sentences, participants, feedbackGivenAt] = await Promise.all([
      repo.scenarioRow(db, principal.accountId, meeting.scenario_id),
      repo.sentences(db, meeting.id),
      repo.participants(db, meeting.id),
      repo.feedbackGivenAt(db, principal.accountId, meeting.id),
    ]);
    const scenario = scenarioRow ? await scenarios.render(db, scenarioRow) : null;
    const analysis =
      meeting.analysis_status === 'completed'
        ? await loadMeetingAnalysis(db, principal.accountId, meeting.id)
        : null;
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    return {
      id: meeting.id,
      scenario_id: meeting.scenario_id,
      membership_id: meeting.membership_id,
      person_name: meeting.person_name,
      person_id: meeting.person_id,
      meeting_type: meeting.meeting_type,
      note_context: meeting.note_context,
      user_memory_tag: meeting.user_memory_tag,
      status: meeting.status,
      analysis_status: meeting.analysis_status,
      summary: meeting.summary,
      agent_provider: meeting.agent_provider,
      started_at: iso(meeting.started_at),
      ended_at: iso(meeting.ended_at),
      duration_seconds: meeting.duration_seconds,
      end_reason: meeting.end_reason as EndReason | null,
      ...roomUrls(this.deps.publicUrl, meeting.id),
      created_at: new Date(meeting.created_at).toISOString(),
      updated_at: new Date(meeting.updated_at).toISOString(),
      Scenario: scenario,
      sentenced_transcripts: sentences.map(renderSentence),
      participants: participants.map(renderParticipant),
      feedback_given_at: iso(feedbackGivenAt ?? null),
      ...(analysis ? { analysis } : {}),
    };
  }

  async end(principal: Principal, id: string) {
    const meeting = await this.find(principal, id);
    const result = await this.deps.lifecycle.end(meeting.id, 'ended_by_api');
    const row = result.meeting;
    return {
      id: row.id,
      status: 'ended' as const,
      ended_at: new Date(row.ended_at!).toISOString(),
      duration_seconds: row.duration_seconds ?? 0,
      end_reason: (row.end_reason ?? 'ended_by_api') as EndReason,
      already_ended: !result.ended,
    };
  }

  /** The workspace's meetings, newest first: `{ data }`, or a page when `limit` or `cursor` is sent. */
  async list(principal: Principal, input: MeetingListInput) {
    const { db, paginator, publicUrl } = this.deps;
    const { accountId } = principal;
    const page = paginator.parse(input, LIST, accountId);
    const after = input.created_after ? new Date(input.created_after) : undefined;
    const before = input.created_before ? new Date(input.created_before) : undefined;
    if (after && before && after >= before) {
      throw new AppError('parameter_invalid', 'created_before must be later than created_after.', {
        param: 'created_before',
      });
    }
    // A malformed scenario or person id names nothing of the workspace: nothing matches.
    const malformed = [input.scenario_id, input.person_id].some((id) => id !== undefined && !isUuid(id));
    const rows = malformed
      ? []
      : await listMeetings(
          db,
          accountId,
          {
            scenarioId: input.scenario_id?.toLowerCase(),
            personId: input.person_id?.toLowerCase(),
            status: input.status,
            personName: input.person_name,
            createdAfter: after,
            createdBefore: before,
            search: input.q,
          } satisfies MeetingFilters,
          page,
        );
    const render = (row: (typeof rows)[number]) => ({
      id: row.id,
      scenario_id: row.scenario_id,
      scenario_name: row.scenario_name,
      person_name: row.person_name,
      status: row.status,
      analysis_status: row.analysis_status,
      // A re-run keeps the previous analysis row until it replaces it: only a completed one counts.
      average_score: row.analysis_status === 'completed' ? (row.average_score ?? null) : null,
      created_at: new Date(row.created_at).toISOString(),
      ended_at: row.ended_at ? new Date(row.ended_at).toISOString() : null,
      duration_seconds: row.duration_seconds,
      meeting_url: roomUrls(publicUrl, row.id).meeting_url,
    });
    if (!page) return { data: rows.map(render) };
    return paginator.page(rows, page, LIST, accountId, positionOf, render);
  }

  /** Deletes the meeting and everything recorded of it (docs/meetings.md, "Deleting a meeting"). */
  async delete(principal: Principal, id: string) {
    const meeting = await this.find(principal, id);
    const deleted = await this.deps.deletion.delete(principal.accountId, meeting.id, 'api');
    if (!deleted) throw notFound('meeting');
    return { id: deleted.id, object: 'meeting' as const, deleted: true as const };
  }

  private async find(principal: Principal, id: string) {
    const meeting = isUuid(id) ? await repo.find(this.deps.db, principal.accountId, id) : undefined;
    if (!meeting) throw notFound('meeting');
    return meeting;
  }
}
