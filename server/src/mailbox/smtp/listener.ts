import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Executor } from '../db.ts';
import { domainsRepository } from '../domains/repository.ts';
import { type InboxRow, inboxesRepository } from '../inboxes/repository.ts';
import type { InboundMail } from '../messages/ingest.ts';

export interface SmtpListenerOptions {
  db: Executor;
  inbound: InboundMail;
  /** The service's own domain; custom domains are accepted once verified. */
  mailDomain: string;
  maxMessageBytes: number;
  tls: { key: Buffer; cert: Buffer } | null;
  hostname?: string;
  /** On close, how long open sessions may go on (new commands get 421) before they are cut. */
  closeTimeoutMs?: number;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

interface SmtpError extends Error {
  responseCode?: number;
}

const sessionInboxes = new WeakMap<object, Map<string, InboxRow>>();

function inboxesOf(session: object): Map<string, InboxRow> {
  let map = sessionInboxes.get(session);
  if (!map) {
    map = new Map();
    sessionInboxes.set(session, map);
  }
  return map;
}

const smtpError = (code: number, message: string): SmtpError =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * The inbound MX: accepts mail for existing inboxes on the service's domain and verified custom
 * domains, refuses everything else with 550 at RCPT TO, enforces the size limit (SIZE extension
 * and a 552 on overflow), offers STARTTLS when a certificate is configured, and stores each message
 * before answering 250 so an accepted message is never lost.
 */
export class SmtpListener {
  private readonly server: SMTPServer;

  constructor(private readonly options: SmtpListenerOptions) {
    const config: SMTPServerOptions = {
      name: options.hostname ?? options.mailDomain,
      banner: 'understudy mailbox',
      size: options.maxMessageBytes,
      authOptional: true,
      disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
      hideSTARTTLS: !options.tls,
      ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
      logger: false,
      maxClients: 200,
      socketTimeout: 60_000,
      closeTimeout: options.closeTimeoutMs ?? 30_000,
      onRcptTo: (address, session, callback) => {
        this.acceptRecipient(address.address).then(
          (inbox) => {
            // Kept for DATA, so the inbox is not looked up a second time.
            inboxesOf(session).set(inbox.id, inbox);
            callback();
          },
          (error: SmtpError) => callback(error),
        );
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', (error) => callback(error));
        stream.on('end', () => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            return callback(
              smtpError(552, `Message exceeds the size limit of ${options.maxMessageBytes} bytes`),
            );
          }
          const raw = Buffer.concat(chunks);
          const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
          const inboxes = inboxesOf(session);
          sessionInboxes.delete(session);
          options.inbound.deliver(raw, { mailFrom, recipients, inboxes }).then(
            (outcomes) => {
              options.logger?.info(
                { recipients, outcomes: outcomes.map((o) => o.status) },
                'inbound mail stored',
              );
              callback(null, 'Message accepted');
            },
            (error: Error) => {
              options.logger?.warn({ err: error }, 'inbound mail could not be stored');
              callback(smtpError(451, 'Temporary failure storing the message, try again later'));
            },
          );
        });
      },
    };
    this.server = new SMTPServer(config);
    this.server.on('error', (error) => options.logger?.warn({ err: error }, 'smtp listener error'));
  }

  private async acceptRecipient(address: string): Promise<InboxRow> {
    const lower = address.toLowerCase();
    const at = lower.lastIndexOf('@');
    if (at < 1) throw smtpError(550, '5.1.3 Bad recipient address syntax');
    const domain = lower.slice(at + 1);
    if (domain !== this.options.mailDomain.toLowerCase()) {
      if (!(await domainsRepository.isVerified(this.options.db, domain)))
        throw smtpError(550, '5.7.1 Relaying denied: we do not accept mail for this domain');
    }
    const inbox = await inboxesRepository.byId(this.options.db, lower);
    if (!inbox) throw smtpError(550, '5.1.1 No such mailbox here');
    return inbox;
  }

  async listen(port: number, host = '0.0.0.0'): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (
      (this.server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo
    ).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function loadTls(
  paths: { keyPath: string; certPath: string } | null,
): { key: Buffer; cert: Buffer } | null {
  return paths ? { key: readFileSync(paths.keyPath), cert: readFileSync(paths.certPath) } : null;
}
