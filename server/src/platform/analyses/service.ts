import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import { JOB_NAMES } from '../job-names.ts';
import { requireScenario } from '../scenarios/require.ts';
import { renderEmbedded, renderStandalone } from './render.ts';
import { type AnalysisWithMeeting, analysisRepository as repo } from './repository.ts';

const LIST = 'analyses';
const SCENARIO_LIST = 'scenario_analyses';

export interface AnalysisServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  paginator: Paginator;
  jobs: JobQueue;
}

/**
 * The `analysis` embedded in GET /meetings/{id}: the meeting's analysis with the embedded goal
 * results, or null when it has none.
 */
export async function loadMeetingAnalysis(db: Kysely<DB>, accountId: string, meetingId: string) {
  if (!isUuid(meetingId)) return null;
  const row = await repo.byMeeting(db, accountId, meetingId);
  if (!row) return null;
  const results = (await repo.goalResults(db, [row.id])).get(row.id) ?? [];
  return renderEmbedded(row, results);
}

export class AnalysisService {
  constructor(private readonly deps: AnalysisServiceDeps) {}

  paginate(query: PageQuery, principal: Principal, list = LIST): PageRequest | null {
    return this.deps.paginator.parse(query, list, principal.accountId);
  }

  async get(principal: Principal, id: string) {
    const row = isUuid(id) ? await repo.byId(this.deps.db, principal.accountId, id.toLowerCase()) : undefined;
    if (!row) throw notFound('analysis');
    return (await this.renderMany([row]))[0]!;
  }

  async forMeeting(principal: Principal, meetingId: string) {
    const id = this.meetingId(meetingId);
    const row = await repo.byMeeting(this.deps.db, principal.accountId, id);
    if (!row) {
      const meeting = await repo.findMeeting(this.deps.db, principal.accountId, id);
      throw new AppError(
        'resource_not_found',
        meeting
          ? `The meeting has no analysis yet (analysis_status: ${meeting.analysis_status}).`
          : 'No such meeting.',
        { param: 'meetingId' },
      );
    }
    return (await this.renderMany([row]))[0]!;
  }

  async list(principal: Principal, query: PageQuery) {
    const page = this.paginate(query, principal);
    return this.listed(principal, page, LIST);
  }

  async forScenario(principal: Principal, scenarioId: string, query: PageQuery) {
    const scenario = await requireScenario(this.deps.db, principal.accountId, scenarioId, 'scenarioId');
    const page = this.paginate(query, principal, `${SCENARIO_LIST}:${scenario.id}`);
    return this.listed(principal, page, `${SCENARIO_LIST}:${scenario.id}`, scenario.id);
  }

  /**
   * Queues a new run of the meeting's analysis. Refused (409) before the meeting has ended and
   * its transcript is complete, and while a run is queued or running.
   */
  async trigger(principal: Principal, meetingId: string) {
    const id = this.meetingId(meetingId);
    return this.deps.db.transaction().execute(async (tx) => {
      const meeting = await repo.findMeeting(tx, principal.accountId, id, true);
      if (!meeting) throw notFound('meeting', 'meetingId');
      if (meeting.status !== 'ended') {
        throw new AppError(
          'resource_conflict',
          `The meeting has not ended (status: ${meeting.status}); its analysis starts when it ends.`,
          { param: 'meetingId' },
        );
      }
      const transcript = await repo.transcriptStatus(tx, id);
      if (transcript?.status !== 'completed') {
        throw new AppError(
          'resource_conflict',
          'The meeting is still being finalised (its transcript is not complete); its analysis starts automatically.',
          { param: 'meetingId', headers: { 'Retry-After': '5' } },
        );
      }
      if (await repo.activeRunJob(tx, id)) {
        throw new AppError('resource_conflict', 'An analysis of this meeting is already queued or running.', {
          param: 'meetingId',
          headers: { 'Retry-After': '5' },
        });
      }
      const job = await this.deps.jobs.enqueue(tx, JOB_NAMES.analysisRun, {
        meeting_id: id,
        account_id: principal.accountId,
        trigger: 'api',
      });
      await repo.markProcessing(tx, id, this.deps.clock.now());
      return {
        success: true as const,
        message: 'Analysis queued.',
        data: { meeting_id: id, analysis_status: 'processing' as const, job_id: job.id },
      };
    });
  }

  private meetingId(raw: string): string {
    if (!isUuid(raw)) throw notFound('meeting', 'meetingId');
    return raw.toLowerCase();
  }

  private async listed(principal: Principal, page: PageRequest | null, list: string, scenarioId?: string) {
    const rows = await repo.list(this.deps.db, principal.accountId, page, scenarioId);
    if (!page) return this.renderMany(rows);
    const kept = rows.slice(0, page.limit);
    const rendered = new Map((await this.renderMany(kept)).map((analysis) => [analysis.id, analysis]));
    return this.deps.paginator.page(
      rows,
      page,
      list,
      principal.accountId,
      positionOf,
      (row) => rendered.get(row.id)!,
    );
  }

  private async renderMany(rows: AnalysisWithMeeting[]) {
    const results = await repo.goalResults(
      this.deps.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => renderStandalone(row, results.get(row.id) ?? []));
  }
}
