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

/**
 * What the relay did with one recipient. `deferred` is worth another try (connection refused or
 * timed out, a 4xx reply); `rejected` is not (a 5xx reply).
 */
export interface RecipientResult {
  address: string;
  outcome: 'accepted' | 'deferred' | 'rejected';
  response: string;
}

/** One result per envelope recipient, in envelope order. */
export interface RelayResult {
  recipients: RecipientResult[];
}

/** Hands finished MIME to the outside world. */
export interface MailRelay {
  readonly configured: boolean;
  send(raw: Buffer, envelope: RelayEnvelope, dkim: DkimKey | null): Promise<RelayResult>;
  close(): void;
}

interface SmtpError {
  response?: string;
  responseCode?: number;
  message?: string;
  recipient?: string;
  rejectedErrors?: SmtpError[];
}

const RESPONSE_MAX = 500;

/** 5xx is permanent; a 4xx reply and anything without a reply (connection, timeout, TLS) is transient. */
export function classifySmtpError(error: SmtpError): Exclude<RecipientResult['outcome'], 'accepted'> {
  const code = error.responseCode ?? 0;
  return code >= 500 && code < 600 ? 'rejected' : 'deferred';
}

function responseOf(error: SmtpError, fallback: string): string {
  return (error.response || error.message || fallback).slice(0, RESPONSE_MAX);
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
    const lower = (address: unknown) => String(address).toLowerCase();
    try {
      const info = (await this.transport.sendMail({ envelope, raw, ...(dkim ? { dkim } : {}) } as never)) as {
        accepted?: unknown[];
        rejectedErrors?: SmtpError[];
        response?: string;
      };
      const accepted = new Set((info.accepted ?? []).map(lower));
      const refused = new Map((info.rejectedErrors ?? []).map((e) => [lower(e.recipient), e]));
      return {
        recipients: envelope.to.map((address) => {
          const error = refused.get(address.toLowerCase());
          if (error) return { address, outcome: classifySmtpError(error), response: responseOf(error, '') };
          if (accepted.has(address.toLowerCase()))
            return { address, outcome: 'accepted', response: (info.response ?? '').slice(0, RESPONSE_MAX) };
          return { address, outcome: 'deferred', response: 'the relay did not answer for this recipient' };
        }),
      };
    } catch (caught) {
      // Every recipient refused at RCPT TO (each with its own reply), or the whole message failed.
      const error = caught as SmtpError;
      const own = new Map((error.rejectedErrors ?? []).map((e) => [lower(e.recipient), e]));
      return {
        recipients: envelope.to.map((address) => {
          const reason = own.get(address.toLowerCase()) ?? error;
          return {
            address,
            outcome: classifySmtpError(reason),
            response: responseOf(reason, 'the relay refused the message'),
          };
        }),
      };
    }
  }

  close(): void {
    this.transport.close();
  }
}

export const NO_RELAY_REASON =
  'No outbound relay is configured (MAIL_RELAY_URL): only inboxes of this service can be reached.';

/** Without MAIL_RELAY_URL only inboxes of this service are reachable; anything else is refused, for good. */
export class NoRelay implements MailRelay {
  readonly configured = false;
  async send(_raw: Buffer, envelope: RelayEnvelope): Promise<RelayResult> {
    return {
      recipients: envelope.to.map((address) => ({ address, outcome: 'rejected', response: NO_RELAY_REASON })),
    };
  }
  close(): void {}
}
