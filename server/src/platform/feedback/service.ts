import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import {
  AGENT_ISSUES,
  type AgentIssue,
  RATINGS,
  type Rating,
  VIDEO_ISSUES,
  type VideoIssue,
} from './catalog.ts';
import { type FeedbackRow, feedbackRepository as repo } from './repository.ts';

export interface FeedbackDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
}

export interface FeedbackInput {
  rating: Rating;
  video_issues?: VideoIssue[];
  agent_issues?: AgentIssue[];
  comment?: string | null;
}

const meetingNotFound = () => new AppError('resource_not_found', 'No such meeting.', { param: 'id' });
const noFeedback = () =>
  new AppError('resource_not_found', 'No feedback has been given for this meeting.', { param: 'id' });

/** Keys in catalog order, each once, whatever order and repeats the client sent. */
function canonical<T extends string>(keys: T[] | undefined, catalog: readonly { key: string }[]): T[] {
  const chosen = new Set(keys ?? []);
  return catalog.map((entry) => entry.key as T).filter((key) => chosen.has(key));
}

export class FeedbackService {
  constructor(private readonly deps: FeedbackDeps) {}

  catalog() {
    const plain = (entries: readonly { key: string; label: string }[]) =>
      entries.map(({ key, label }) => ({ key, label }));
    return { ratings: plain(RATINGS), video_issues: plain(VIDEO_ISSUES), agent_issues: plain(AGENT_ISSUES) };
  }

  render(row: FeedbackRow) {
    return {
      meeting_id: row.meeting_id,
      membership_id: row.membership_id,
      rating: row.rating,
      video_issues: row.video_issues as VideoIssue[],
      agent_issues: row.agent_issues as AgentIssue[],
      comment: this.deps.secretBox.openNullable(row.comment_sealed),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  /** One answer per meeting: the first is created, a later one replaces it whole. */
  async submit(principal: Principal, meetingId: string, input: FeedbackInput) {
    await this.requireMeeting(principal, meetingId);
    return this.store(principal.accountId, principal.membershipId, meetingId, input);
  }

  private async store(
    accountId: string,
    membershipId: string | null,
    meetingId: string,
    input: FeedbackInput,
  ) {
    const { db, clock, secretBox } = this.deps;
    const now = clock.now();
    const comment = input.comment?.trim() ? input.comment : null;
    const values = {
      membership_id: membershipId,
      rating: input.rating,
      video_issues: JSON.stringify(canonical(input.video_issues, VIDEO_ISSUES)),
      agent_issues: JSON.stringify(canonical(input.agent_issues, AGENT_ISSUES)),
      comment_sealed: secretBox.sealNullable(comment),
      updated_at: now,
    };
    const row = await repo.upsert(
      db,
      { meeting_id: meetingId, account_id: accountId, created_at: now, ...values },
      values,
    );
    return { created: row.inserted, feedback: this.render(row) };
  }

  /**
   * The participant's own answer, through the room (its token opened `meeting`): after the meeting
   * has ended only, with no workspace member behind it (`membership_id` null), and not over an
   * answer a team member gave.
   */
  async submitFromRoom(meeting: { id: string; account_id: string }, input: FeedbackInput) {
    const found = await repo.findMeeting(this.deps.db, meeting.account_id, meeting.id);
    if (!found) throw meetingNotFound();
    if (found.status !== 'ended') {
      throw new AppError('resource_conflict', 'Feedback is given once the meeting has ended.', {
        param: 'meetingId',
      });
    }
    // The participant may change their own answer, never one a team member gave through the API.
    const earlier = await repo.find(this.deps.db, meeting.account_id, meeting.id);
    if (earlier && earlier.membership_id !== null) {
      throw new AppError('resource_conflict', 'Feedback for this meeting has already been given.', {
        param: 'meetingId',
      });
    }
    return this.store(meeting.account_id, null, meeting.id, input);
  }

  async get(principal: Principal, meetingId: string) {
    await this.requireMeeting(principal, meetingId);
    const row = await repo.find(this.deps.db, principal.accountId, meetingId);
    if (!row) throw noFeedback();
    return this.render(row);
  }

  private async requireMeeting(principal: Principal, meetingId: string) {
    const found = isUuid(meetingId)
      ? await repo.findMeeting(this.deps.db, principal.accountId, meetingId)
      : undefined;
    if (!found) throw meetingNotFound();
  }
}
