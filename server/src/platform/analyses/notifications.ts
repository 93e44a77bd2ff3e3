// The end-of-meeting email to a scenario's `notification_emails`, sent by its own job through the
// SMTP relay at SMTP_URL, so a slow relay never holds up the analysis.
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { DB } from '../../core/db/schema.ts';
import { formatOffset } from './engine/format-offset.ts';
import { analysisRepository } from './repository.ts';

export interface NotificationEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  headers: Record<string, string>;
}

export interface NotificationMailer {
  send(email: NotificationEmail): Promise<void>;
  close(): void;
}

const RELAY_TIMEOUT_MS = 30_000;

/**
 * SMTP_URL may carry the sender as a `from` query parameter
 * (`smtp://user:pass@relay:587?from=notify@example.com`); without it the sender is
 * `notifications@<PUBLIC_URL host>`. The parameter is removed before the URL reaches nodemailer.
 */
export function parseSmtpUrl(smtpUrl: string, publicUrl: string): { url: string; from: string } {
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from') || `notifications@${new URL(publicUrl).hostname}`;
  url.searchParams.delete('from');
  return { url: url.toString(), from: from.includes('<') ? from : `Understudy <${from}>` };
}

/** A module's relay at SMTP_URL with its sender, closed on shutdown; null when none is configured. */
export function configuredMailer(
  config: { smtpUrl: string | null; publicUrl: string },
  disposers: Array<() => unknown>,
): { mailer: NotificationMailer; from: string } | null {
  if (!config.smtpUrl) return null;
  const smtp = parseSmtpUrl(config.smtpUrl, config.publicUrl);
  const mailer = smtpMailer(smtp.url);
  disposers.push(() => mailer.close());
  return { mailer, from: smtp.from };
}

export function smtpMailer(url: string): NotificationMailer {
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: RELAY_TIMEOUT_MS,
    greetingTimeout: RELAY_TIMEOUT_MS,
    socketTimeout: RELAY_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  } as never);
  return {
    async send(email) {
      const info = (await transport.sendMail({
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        headers: email.headers,
      })) as { accepted?: unknown[]; response?: string };
      if (!info.accepted || info.accepted.length === 0) {
        throw new Error(`the SMTP relay accepted no recipient: ${info.response ?? ''}`.trim());
      }
    },
    close: () => transport.close(),
  };
}

/** Composes the email for a meeting, or null when there is nobody to tell. */
export async function composeNotification(
  db: Kysely<DB>,
  meetingId: string,
  from: string,
): Promise<NotificationEmail | null> {
  const meeting = await analysisRepository.notificationSubject(db, meetingId);
  if (!meeting || meeting.notification_emails.length === 0) return null;
  const who = meeting.person_name?.trim() || 'the participant';
  const lines = [
    `The meeting "${meeting.scenario_name}" with ${who} has ended.`,
    '',
    `Ended at: ${meeting.ended_at ? new Date(meeting.ended_at).toISOString() : 'unknown'}`,
    `Length: ${formatOffset(meeting.duration_seconds ?? 0)}`,
    `Meeting id: ${meeting.id}`,
    '',
  ];
  const analysis =
    meeting.analysis_status === 'completed'
      ? await analysisRepository.byMeeting(db, meeting.account_id, meeting.id)
      : undefined;
  if (analysis) {
    const results = (await analysisRepository.goalResults(db, [analysis.id])).get(analysis.id) ?? [];
    lines.push(
      `Analysis (${analysis.evaluator === 'llm' ? 'language model' : 'offline rule-based evaluator'}):`,
    );
    if (analysis.average_score !== null) {
      lines.push(`Average score: ${analysis.average_score} (total ${analysis.total_score})`);
    }
    for (const result of results) {
      lines.push(`- ${result.goal.name}: ${result.score} (${result.score_min}–${result.score_max})`);
    }
    lines.push('', analysis.summary);
  } else if (meeting.analysis_status === 'failed') {
    lines.push(
      'The analysis of this meeting failed. It can be run again with POST /v1/analyses/trigger/{meetingId}.',
    );
  } else {
    lines.push('The analysis of this meeting is not available yet.');
  }
  return {
    from,
    to: meeting.notification_emails,
    subject: `Meeting ended: ${meeting.scenario_name} with ${who}`,
    text: `${lines.join('\n')}\n`,
    headers: { 'X-Understudy-Meeting-Id': meeting.id },
  };
}
