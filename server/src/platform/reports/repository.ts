import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

export const reportRepository = {
  /** The meeting a report is about: who practised what, with whom, and whether results are shared. */
  meeting(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meetings')
      .innerJoin('scenarios', 'scenarios.id', 'meetings.scenario_id')
      .leftJoin('personas', 'personas.id', 'scenarios.persona_id')
      .select([
        'meetings.id',
        'meetings.account_id',
        'meetings.person_id',
        'meetings.person_name',
        'meetings.status',
        'meetings.analysis_status',
        'meetings.started_at',
        'meetings.ended_at',
        'scenarios.id as scenario_id',
        'scenarios.name as scenario_name',
        'scenarios.meeting_controls',
        'personas.name as persona_name',
      ])
      .where('meetings.account_id', '=', accountId)
      .where('meetings.id', '=', meetingId)
      .executeTakeFirst();
  },
  /** The participant's own sentences among `ids`, in the order they were said. */
  participantSentences(db: Kysely<DB>, meetingId: string, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('transcript_sentences')
      .select(['id', 'message', 'start_ms'])
      .where('meeting_id', '=', meetingId)
      .where('speaker', '=', 'user')
      .where('id', 'in', ids)
      .orderBy('sequence_number')
      .execute();
  },
  comment(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .selectFrom('meeting_comments')
      .leftJoin('memberships', 'memberships.id', 'meeting_comments.membership_id')
      .leftJoin('users', 'users.id', 'memberships.user_id')
      .select(['meeting_comments.text', 'meeting_comments.updated_at', 'users.name as author_name'])
      .where('meeting_comments.account_id', '=', accountId)
      .where('meeting_comments.meeting_id', '=', meetingId)
      .executeTakeFirst();
  },
  saveComment(db: Kysely<DB>, values: Insertable<DB['meeting_comments']>) {
    return db
      .insertInto('meeting_comments')
      .values(values)
      .onConflict((conflict) =>
        conflict.column('meeting_id').doUpdateSet({
          text: values.text,
          membership_id: values.membership_id,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  },
  deleteComment(db: Kysely<DB>, accountId: string, meetingId: string) {
    return db
      .deleteFrom('meeting_comments')
      .where('account_id', '=', accountId)
      .where('meeting_id', '=', meetingId)
      .returning('meeting_id')
      .executeTakeFirst();
  },
};
