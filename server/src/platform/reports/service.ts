import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import { learnerReport } from './report.ts';
import { reportRepository as repo } from './repository.ts';

/** Learner reports and the coach's comment on a meeting (docs/reports.md). */
export class ReportService {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock }) {}

  async get(principal: Principal, meetingId: string) {
    const report = isUuid(meetingId)
      ? await learnerReport(this.deps.db, principal.accountId, meetingId)
      : null;
    if (!report) throw notFound('meeting');
    return report;
  }

  /** Writes (or rewrites) the comment: the latest author signs it. */
  async comment(principal: Principal, meetingId: string, text: string) {
    await this.get(principal, meetingId);
    const now = this.deps.clock.now();
    await repo.saveComment(this.deps.db, {
      meeting_id: meetingId,
      account_id: principal.accountId,
      text: text.trim(),
      membership_id: principal.membershipId,
      created_at: now,
      updated_at: now,
    });
    return this.get(principal, meetingId);
  }

  async removeComment(principal: Principal, meetingId: string) {
    await this.get(principal, meetingId);
    await repo.deleteComment(this.deps.db, principal.accountId, meetingId);
    return this.get(principal, meetingId);
  }
}
