// The assignment e-mail: each assigned person with an address is sent their personal link through
// the SMTP relay at SMTP_URL, by a job of its own (the coach can always copy the link, so a slow or
// absent relay never blocks an assignment). Sent once; `emailed_at` records it.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { defineJob, type JobDefinition } from '../../core/jobs/index.ts';
import type { NotificationMailer } from '../analyses/notifications.ts';
import { JOB_NAMES } from '../job-names.ts';
import { assignmentRepository } from './repository.ts';

export interface PracticeEmailDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  mailer: { mailer: NotificationMailer; from: string } | null;
  practiceUrl: (token: string) => string;
}

const day = (value: Date) =>
  new Date(value).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

export function practiceEmailJob(deps: PracticeEmailDeps): JobDefinition<any> {
  return defineJob({
    name: JOB_NAMES.assignmentEmail,
    payload: Type.Object({ target_id: Type.String() }, { additionalProperties: true }),
    retry: { maxAttempts: 6, backoffMs: 30_000, maxBackoffMs: 30 * 60_000 },
    timeoutMs: 60_000,
    handler: async (payload, context) => {
      if (!deps.mailer) return;
      const target = await assignmentRepository.forEmail(deps.db, payload.target_id);
      // Deleted, already sent, or their address removed before the relay's turn came.
      if (!target?.person_email || target.emailed_at) return;
      const who = target.assigned_by ?? 'Your coach';
      const attempts = target.max_attempts === 1 ? 'one attempt' : `${target.max_attempts} attempts`;
      await deps.mailer.mailer.send({
        from: deps.mailer.from,
        to: [target.person_email],
        subject: `${who} assigned you practice: ${target.scenario_name}`,
        text: [
          `Hello ${target.person_name},`,
          '',
          `${who} asked you to practise "${target.scenario_name}" (${attempts}${target.due_at ? `, due ${day(target.due_at)}` : ''}).`,
          ...(target.note ? ['', target.note] : []),
          '',
          'Start when you are ready (the link is yours: no sign-in needed):',
          deps.practiceUrl(deps.secretBox.open(target.token_sealed)),
        ].join('\n'),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      await assignmentRepository.markEmailed(deps.db, target.id, deps.clock.now());
      context.logger.info({ target_id: target.id }, 'assignment e-mailed');
    },
  });
}
