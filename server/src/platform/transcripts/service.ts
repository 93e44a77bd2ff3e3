import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { renderSentence } from '../meetings/render.ts';

const LIST = 'scenario_transcripts';
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

type TranscriptRow = Selectable<DB['transcripts']>;

export class TranscriptService {
  constructor(private readonly deps: { db: Kysely<DB>; paginator: Paginator }) {}

  /** GET /transcripts/meeting/{meetingId}: the meeting's non-sentenced transcript (one per meeting). */
  async forMeeting(principal: Principal, meetingId: string) {
    const { db } = this.deps;
    const meeting = isUuid(meetingId)
      ? await db
          .selectFrom('meetings')
          .select(['id', 'person_name', 'scenario_id'])
          .where('account_id', '=', principal.accountId)
          .where('id', '=', meetingId)
          .executeTakeFirst()
      : undefined;
    if (!meeting) throw notFound('meeting', 'meetingId');
    const transcripts = await db
      .selectFrom('transcripts')
      .selectAll()
      .where('meeting_id', '=', meeting.id)
      .where('account_id', '=', principal.accountId)
      .execute();
    return Promise.all(transcripts.map((row) => this.render(row)));
  }

  private async render(row: TranscriptRow) {
    let content = row.content;
    if (row.status !== 'completed' || content === null) {
      // Still running: the text so far, in the same form the finalised transcript takes.
      const names = await this.speakerNames(row.meeting_id);
      const sentences = await this.deps.db
        .selectFrom('transcript_sentences')
        .select(['speaker', 'message'])
        .where('transcript_id', '=', row.id)
        .orderBy('sequence_number')
        .execute();
      content = sentences.map((s) => `${names[s.speaker]}: ${s.message}`).join('\n');
    }
    return {
      id: Number(row.id),
      meeting_id: row.meeting_id,
      content,
      status: row.status,
      language: row.language,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  private async speakerNames(meetingId: string) {
    const row = await this.deps.db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select(['meetings.person_name', 'personas.name as persona_name'])
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
    return { user: row?.person_name?.trim() || 'Participant', agent: row?.persona_name?.trim() || 'Agent' };
  }

  /** The scenario's info; soft-deleted scenarios keep their transcripts readable. */
  private async scenarioInfo(accountId: string, scenarioId: string, param: string) {
    const row = isUuid(scenarioId)
      ? await this.deps.db
          .selectFrom('scenarios')
          .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
          .select([
            'scenarios.id',
            'scenarios.name',
            'scenarios.type',
            'scenarios.description',
            'personas.name as persona_name',
          ])
          .where('scenarios.account_id', '=', accountId)
          .where('scenarios.id', '=', scenarioId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound('scenario', param);
    return { ...row, persona_name: row.persona_name ?? null };
  }

  paginate(query: PageQuery, principal: Principal): PageRequest | null {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  /** GET /sentenced-transcripts/scenario/{scenarioId}: every meeting of the scenario with its sentences, newest first. */
  async forScenario(principal: Principal, scenarioId: string, pageQuery: PageQuery) {
    const { db, paginator } = this.deps;
    const scenario = await this.scenarioInfo(principal.accountId, scenarioId, 'scenarioId');
    const page = this.paginate(pageQuery, principal);
    let query = db
      .selectFrom('meetings')
      .innerJoin('transcripts', 'transcripts.meeting_id', 'meetings.id')
      .select([
        'meetings.id',
        'meetings.person_name',
        'meetings.created_at',
        'transcripts.id as transcript_id',
      ])
      .where('meetings.account_id', '=', principal.accountId)
      .where('meetings.scenario_id', '=', scenario.id)
      .orderBy('meetings.created_at', 'desc')
      .orderBy('meetings.id', 'desc');
    if (page) {
      if (page.after) {
        const after = page.after;
        query = query.where((eb) =>
          eb.or([
            eb('meetings.created_at', '<', new Date(after.createdAt)),
            eb.and([
              eb('meetings.created_at', '=', new Date(after.createdAt)),
              eb('meetings.id', '<', String(after.id)),
            ]),
          ]),
        );
      }
      query = query.limit(page.limit + 1);
    }
    const rows = await query.execute();
    const kept = page ? rows.slice(0, page.limit) : rows;
    const sentences = kept.length
      ? await db
          .selectFrom('transcript_sentences')
          .selectAll()
          .where(
            'transcript_id',
            'in',
            kept.map((row) => row.transcript_id),
          )
          .orderBy('transcript_id')
          .orderBy('sequence_number')
          .execute()
      : [];
    const byTranscript = new Map<number, ReturnType<typeof renderSentence>[]>();
    for (const sentence of sentences) {
      const id = Number(sentence.transcript_id);
      byTranscript.set(id, [...(byTranscript.get(id) ?? []), renderSentence(sentence)]);
    }
    const render = (row: (typeof rows)[number]) => ({
      meeting_id: row.id,
      person_name: row.person_name,
      created_at: new Date(row.created_at).toISOString(),
      transcripts: [
        {
          transcript_id: Number(row.transcript_id),
          sentences: byTranscript.get(Number(row.transcript_id)) ?? [],
        },
      ],
    });
    if (!page)
      return { success: true as const, data: { scenario_info: scenario, meetings: kept.map(render) } };
    const listed = paginator.page(
      rows,
      page,
      LIST,
      principal.accountId,
      (row) => ({ createdAt: new Date(row.created_at).toISOString(), id: row.id }),
      render,
    );
    return {
      success: true as const,
      data: { scenario_info: scenario, meetings: listed.data },
      object: 'list' as const,
      has_more: listed.has_more,
      next_cursor: listed.next_cursor,
    };
  }

  /** GET /sentenced-transcripts/{transcriptId}/{meetingId}/{scenarioId}: all three must belong together. */
  async sentences(principal: Principal, transcriptId: string, meetingId: string, scenarioId: string) {
    const { db } = this.deps;
    const id = /^\d{1,15}$/.test(transcriptId) ? Number(transcriptId) : null;
    const row =
      id !== null && isUuid(meetingId) && isUuid(scenarioId)
        ? await db
            .selectFrom('transcripts')
            .innerJoin('meetings', 'meetings.id', 'transcripts.meeting_id')
            .select([
              'transcripts.id as transcript_id',
              'meetings.id',
              'meetings.person_name',
              'meetings.status',
              'meetings.created_at',
              'meetings.started_at',
              'meetings.ended_at',
              'meetings.duration_seconds',
            ])
            .where('transcripts.id', '=', id)
            .where('transcripts.account_id', '=', principal.accountId)
            .where('meetings.id', '=', meetingId)
            .where('meetings.scenario_id', '=', scenarioId)
            .executeTakeFirst()
        : undefined;
    if (!row) throw notFound('transcript', 'transcriptId');
    const scenario = await this.scenarioInfo(principal.accountId, scenarioId, 'scenarioId');
    const sentences = await db
      .selectFrom('transcript_sentences')
      .selectAll()
      .where('transcript_id', '=', Number(row.transcript_id))
      .orderBy('sequence_number')
      .execute();
    return {
      success: true as const,
      data: {
        sentences: sentences.map(renderSentence),
        meeting_info: {
          id: row.id,
          person_name: row.person_name,
          status: row.status,
          created_at: new Date(row.created_at).toISOString(),
          started_at: iso(row.started_at),
          ended_at: iso(row.ended_at),
          duration_seconds: row.duration_seconds,
        },
        scenario_info: scenario,
      },
    };
  }
}
