// The invitation e-mail, sent by its own job through the SMTP relay at SMTP_URL (the inviter is
// shown the link either way, so a slow or absent relay never blocks an invitation).
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { ROLE_DESCRIPTIONS, type Role } from '../../core/http/roles.ts';
import { defineJob, type JobDefinition } from '../../core/jobs/index.ts';
import type { NotificationMailer } from '../analyses/notifications.ts';
import { JOB_NAMES } from '../job-names.ts';
import { invitationRepository } from './repository.ts';

export interface InvitationEmailDeps {
  db: Kysely<DB>;
  secretBox: SecretBox;
  mailer: { mailer: NotificationMailer; from: string } | null;
}

export function invitationEmailJob(deps: InvitationEmailDeps): JobDefinition<any> {
  return defineJob({
    name: JOB_NAMES.invitationEmail,
    payload: Type.Object(
      { invitation_id: Type.String(), url: Type.String() },
      { additionalProperties: true },
    ),
    retry: { maxAttempts: 6, backoffMs: 30_000, maxBackoffMs: 30 * 60_000 },
    timeoutMs: 60_000,
    handler: async (payload, context) => {
      if (!deps.mailer) return;
      const invitation = await invitationRepository.forEmail(deps.db, payload.invitation_id);
      // Revoked or used before the relay's turn came: nothing to send.
      if (!invitation || invitation.revoked_at || invitation.accepted_at) return;
      const role = invitation.role as Role;
      const who = invitation.inviter ?? 'A member';
      await deps.mailer.mailer.send({
        from: deps.mailer.from,
        to: [invitation.email],
        subject: `${who} invited you to ${invitation.workspace} on Understudy`,
        text: [
          `${who} invited you to join the workspace "${invitation.workspace}" as ${role === 'admin' || role === 'author' || role === 'owner' ? 'an' : 'a'} ${role}.`,
          `${ROLE_DESCRIPTIONS[role]}`,
          '',
          `Accept the invitation (the link works once, for 7 days):`,
          deps.secretBox.open(payload.url),
          '',
          'If you did not expect this, ignore this message.',
        ].join('\n'),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      context.logger.info({ invitation_id: payload.invitation_id }, 'invitation e-mailed');
    },
  });
}
