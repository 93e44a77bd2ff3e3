import nodemailer from 'nodemailer';

export interface RelayEnvelope {
  from: string;
  to: string[];
}

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export type RelayResult =
  | { ok: true; accepted: string[]; rejected: string[]; response: string }
  | { ok: false; reason: string };

/** Hands finished MIME to the outside world. */
export interface MailRelay {
  readonly configured: boolean;
  send(raw: Buffer, envelope: RelayEnvelope, dkim: DkimKey | null): Promise<RelayResult>;
  close(): void;
}

/** SMTP relay at MAIL_RELAY_URL through nodemailer; the message is DKIM-signed on the way out when a key is given. */
export class SmtpRelay implements MailRelay {
  readonly configured = true;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(url: string, options: { timeoutMs?: number } = {}) {
    const timeout = options.timeoutMs ?? 30_000;
    this.transport = nodemailer.createTransport(url, {
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      disableFileAccess: true,
      disableUrlAccess: true,
    } as never);
  }

  async send(raw: Buffer, envelope: RelayEnvelope, dkim: DkimKey | null): Promise<RelayResult> {
    try {
      const info = (await this.transport.sendMail({ envelope, raw, ...(dkim ? { dkim } : {}) } as never)) as {
        accepted?: unknown[];
        rejected?: unknown[];
        response?: string;
      };
      const accepted = (info.accepted ?? []).map(String);
      const rejected = (info.rejected ?? []).map(String);
      if (accepted.length === 0)
        return { ok: false, reason: info.response || 'the relay accepted no recipient' };
      return { ok: true, accepted, rejected, response: info.response ?? '' };
    } catch (error) {
      const err = error as { response?: string; message?: string };
      return {
        ok: false,
        reason: (err.response || err.message || 'the relay refused the message').slice(0, 500),
      };
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** Without MAIL_RELAY_URL only inboxes of this service are reachable; anything else is refused, honestly. */
export class NoRelay implements MailRelay {
  readonly configured = false;
  async send(): Promise<RelayResult> {
    return {
      ok: false,
      reason:
        'No outbound relay is configured (MAIL_RELAY_URL): only inboxes of this service can be reached.',
    };
  }
  close(): void {}
}
