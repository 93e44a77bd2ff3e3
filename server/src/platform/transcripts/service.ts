import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { renderSentence } from '../meetings/render.ts';
import { meetingRepository } from '../meetings/repository.ts';
import { transcriptRepository as repo } from './repository.ts';

const LIST = 'scenario_transcripts';
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

type TranscriptRow = Selectable<DB['transcripts']>;

export class TranscriptService {
  constructor(private readonly deps: { db: Kysely<DB>; paginator: Paginator }) {}

  /** GET /transcripts/meeting/{meetingId}: the meeting's non-sentenced transcript (one per meeting). */
  async forMeeting(principal: Principal, meetingId: string) {
    const { db } = this.deps;
    const meeting = isUuid(meetingId)
      ? await repo.findMeeting(db, principal.accountId, meetingId)
      : undefined;
    if (!meeting) throw notFound('meeting', 'meetingId');
    const transcripts = await repo.forMeeting(db, principal.accountId, meeting.id);
    return Promise.all(transcripts.map((row) => this.render(row)));
  }

  private async render(row: TranscriptRow) {
    let content = row.content;
    if (row.status !== 'completed' || content === null) {
      // Still running: the text so far, in the same form the finalised transcript takes.
      const names = await this.speakerNames(row.meeting_id);
      const sentences = await meetingRepository.transcriptLines(this.deps.db, row.id);
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
    const row = await repo.speakers(this.deps.db, meetingId);
    return { user: row?.person_name?.trim() || 'Participant', agent: row?.persona_name?.trim() || 'Agent' };
  }

  /** The scenario's info; soft-deleted scenarios keep their transcripts readable. */
  private async scenarioInfo(accountId: string, scenarioId: string, param: string) {
    const row = isUuid(scenarioId) ? await repo.scenarioInfo(this.deps.db, accountId, scenarioId) : undefined;
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
    const rows = await repo.scenarioMeetings(db, principal.accountId, scenario.id, page);
    const kept = page ? rows.slice(0, page.limit) : rows;
    const sentences = kept.length
      ? await repo.sentencesOf(
          db,
          kept.map((row) => row.transcript_id),
        )
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
        ? await repo.findWithMeeting(db, principal.accountId, { transcriptId: id, meetingId, scenarioId })
        : undefined;
    if (!row) throw notFound('transcript', 'transcriptId');
    const scenario = await this.scenarioInfo(principal.accountId, scenarioId, 'scenarioId');
    const sentences = await meetingRepository.transcriptSentences(db, Number(row.transcript_id));
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
