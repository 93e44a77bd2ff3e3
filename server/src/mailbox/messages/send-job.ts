import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { AppError } from '../../core/http/errors.ts';
import { defineJob, type JobDefinition, type RetryPolicy } from '../../core/jobs/index.ts';
import { type ObjectStorage, toBuffer } from '../../core/storage/types.ts';
import type { Executor } from '../db.ts';
import { domainsRepository } from '../domains/repository.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { scopeOf } from '../events/types.ts';
import { type InboxRow, inboxesRepository } from '../inboxes/repository.ts';
import { checkRecipientLists } from '../lists/recipients.ts';
import type { OutboundRecipient } from '../tables.ts';
import { TRASH, threadsRepository } from '../threads/repository.ts';
import { unique } from './addresses.ts';
import type { InboundMail } from './ingest.ts';
import { outboundRepository } from './outbound-repository.ts';
import { toMessage, toThread } from './present.ts';
import { givenUp, isOpen, relayOutcomes, withOutcomes } from './recipients.ts';
import { type MessageRow, messagesRepository } from './repository.ts';
import type { DkimKey, MailRelay } from './transport.ts';

/** Stored with every queued send: never rename it (queued jobs would be stranded). */
export const MAILBOX_SEND_JOB = 'mailbox.send';

/**
 * 12 attempts, 30 s · 2^(n-1) apart, capped at 1 h: 30 s, 1, 2, 4, 8, 16, 32 min, then hourly;
 * the last attempt comes about 5 h after the first. Only deferred recipients are tried again.
 */
export const SEND_RETRY: RetryPolicy = { maxAttempts: 12, backoffMs: 30_000, maxBackoffMs: 3_600_000 };

/** Longer than the relay's own timeouts (30 s per step): a run that passes it is aborted and retried. */
const SEND_TIMEOUT_MS = 5 * 60_000;

export interface OutboundDeliveryDeps {
  db: Executor;
  clock: Clock;
  storage: ObjectStorage;
  recorder: EventRecorder;
  relay: MailRelay;
  inbound: InboundMail;
  secretBox: SecretBox;
  mailDomain: string;
}

/**
 * One attempt at delivering a stored outbound message: inboxes of this service first (locally,
 * idempotent: a message is stored once per inbox and Message-ID), then the relay for everyone
 * else still open, each recipient's outcome recorded as it comes. The bytes are the stored raw
 * message, the same on every attempt. Once nobody is left to try, the message becomes `sent`
 * (someone got it) or `rejected` (nobody did) with its event, in one transaction.
 */
export class OutboundDelivery {
  constructor(private readonly deps: OutboundDeliveryDeps) {}

  /** Runs one attempt; returns how many recipients are deferred (0: the message is final). */
  async attempt(rowId: string, options: { last: boolean }): Promise<number> {
    const { db, clock } = this.deps;
    let row = await outboundRepository.byRowId(db, rowId);
    if (row?.status === 'scheduled') row = await this.start(rowId);
    // Gone with its inbox, cancelled, or final already (a run that died after recording it).
    if (row?.status !== 'sending' || !row.raw_key) return 0;
    const inbox = await inboxesRepository.byId(db, row.inbox_id);
    const object = inbox ? await this.deps.storage.get(row.raw_key) : null;
    if (!inbox || !object) throw new Error(`outbound message ${rowId}: inbox or raw bytes missing`);
    const raw = await toBuffer(object.body);

    let recipients = row.recipients;
    const internal = await this.internalOf(recipients.filter(isOpen).map((r) => r.address));
    if (internal.length > 0) {
      const outcomes = await this.deps.inbound.deliver(raw, { mailFrom: inbox.id, recipients: internal });
      const local = new Map(
        outcomes.map((outcome) => [
          outcome.inboxId,
          outcome.status === 'missing'
            ? { status: 'rejected' as const, last_response: 'no such inbox' }
            : { status: 'delivered' as const, last_response: 'delivered to the inbox' },
        ]),
      );
      recipients = withOutcomes(recipients, local, clock.now());
      await outboundRepository.saveRecipients(db, rowId, recipients, clock.now());
    }
    const external = recipients.filter(isOpen).map((r) => r.address);
    if (external.length > 0) {
      const result = await this.deps.relay.send(
        raw,
        { from: inbox.id, to: external },
        await this.dkimFor(inbox.domain),
      );
      recipients = withOutcomes(recipients, relayOutcomes(result.recipients), clock.now());
      await outboundRepository.saveRecipients(db, rowId, recipients, clock.now());
    }

    const deferred = recipients.filter(isOpen).length;
    if (deferred > 0 && !options.last) return deferred;
    await this.finish(inbox, rowId, givenUp(recipients, SEND_RETRY.maxAttempts, clock.now()));
    return 0;
  }

  /**
   * A scheduled message's time came: it is `sending` from now on, and can no longer be cancelled.
   * Unless it is in the trash: trashing a scheduled message cancels it (it becomes `cancelled`
   * here, never sent; restored before send_at it goes as planned). And the send lists are checked
   * again, as they may have changed since it was scheduled: a recipient they now refuse rejects
   * the whole message, as the send itself would have been refused (`message.rejected`).
   */
  private async start(rowId: string) {
    const now = this.deps.clock.now();
    return this.deps.recorder.transaction(async (trx, emit) => {
      const row = await outboundRepository.lockWithThread(trx, rowId);
      if (row?.status !== 'scheduled') return row;
      const labels = row.labels.filter((label) => label !== 'scheduled');
      if (row.labels.includes(TRASH))
        return outboundRepository.update(trx, row, {
          status: 'cancelled',
          labels: unique([...labels, 'cancelled']),
          now,
        });
      const inbox = await inboxesRepository.byId(trx, row.inbox_id);
      const refused = inbox ? await refusedByLists(trx, inbox, row) : null;
      if (!inbox || !refused) return outboundRepository.update(trx, row, { status: 'sending', labels, now });
      const recipients = row.recipients.map((r) => ({
        ...r,
        status: 'rejected' as const,
        last_response: refused,
        updated_at: now.toISOString(),
      }));
      const updated = await outboundRepository.update(trx, row, {
        status: 'rejected',
        labels: unique(['rejected', ...labels]),
        recipients,
        rejection_reason: refused,
        now,
      });
      await emit('message.rejected', scopeOf(inbox), { ...(await eventBody(trx, updated)), reason: refused });
      return updated;
    });
  }

  private async finish(inbox: InboxRow, rowId: string, recipients: OutboundRecipient[]) {
    const now = this.deps.clock.now();
    const got = recipients.filter((r) => r.status === 'sent' || r.status === 'delivered');
    const rejected = recipients.filter((r) => r.status === 'rejected');
    const reason = got.length
      ? null
      : unique(rejected.map((r) => r.last_response ?? 'refused'))
          .join('; ')
          .slice(0, 1_000);
    await this.deps.recorder.transaction(async (trx, emit) => {
      const row = await outboundRepository.lockWithThread(trx, rowId);
      if (row?.status !== 'sending') return;
      const status = got.length ? 'sent' : 'rejected';
      const updated = await outboundRepository.update(trx, row, {
        status,
        labels: unique([status, ...row.labels]),
        recipients,
        rejection_reason: reason,
        now,
      });
      const body = await eventBody(trx, updated);
      // `recipients` and `reason` as before the queue: `internal` got it locally, `external`
      // went (or was meant to go) through the relay, `rejected` never got it.
      const internal = recipients.filter((r) => r.status === 'delivered').map((r) => r.address);
      if (status === 'sent') {
        await emit('message.sent', scopeOf(inbox), {
          ...body,
          recipients: {
            internal,
            external: recipients.map((r) => r.address).filter((a) => !internal.includes(a)),
            rejected: rejected.map((r) => r.address),
          },
        });
      } else {
        await emit('message.rejected', scopeOf(inbox), { ...body, reason });
      }
    });
  }

  /** Recipients that are inboxes of this service (on its domain or a verified custom domain). */
  private async internalOf(addresses: string[]): Promise<string[]> {
    const inboxes = await inboxesRepository.placesOf(this.deps.db, addresses);
    return inboxes.map((inbox) => inbox.id);
  }

  private async dkimFor(domain: string): Promise<DkimKey | null> {
    if (domain === this.deps.mailDomain.toLowerCase()) return null;
    const row = await domainsRepository.signingKey(this.deps.db, domain);
    if (!row) return null;
    return {
      domainName: row.id,
      keySelector: row.dkim_selector,
      privateKey: this.deps.secretBox.open(row.dkim_private_key_sealed),
    };
  }
}

/** `message` and `thread` of the events `message.sent` and `message.rejected`. */
async function eventBody(db: Executor, row: MessageRow) {
  const attachments = (await messagesRepository.attachmentsFor(db, [row.id])).get(row.id);
  const thread = row.thread_id ? await threadsRepository.get(db, null, row.thread_id) : undefined;
  return { message: toMessage(row, attachments), thread: thread ? toThread(thread) : null };
}

/** Why the inbox's send lists now refuse some recipient of the message (null: they admit all). */
async function refusedByLists(db: Executor, inbox: InboxRow, row: MessageRow): Promise<string | null> {
  try {
    await checkRecipientLists(db, inbox, { to: row.to, cc: row.cc, bcc: row.bcc });
    return null;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'recipient_not_allowed') throw error;
    return (error.errors ?? [])
      .map((e) => e.message)
      .join('; ')
      .slice(0, 1_000);
  }
}

/** The queue's job for one outbound message; a deferred recipient makes the run fail, so it is retried. */
export function mailboxSendJob(
  delivery: OutboundDelivery,
  options: { timeoutMs?: number } = {},
): JobDefinition<{ message_row_id: string }> {
  return defineJob({
    name: MAILBOX_SEND_JOB,
    payload: Type.Object({ message_row_id: Type.String() }),
    retry: SEND_RETRY,
    timeoutMs: options.timeoutMs ?? SEND_TIMEOUT_MS,
    handler: async ({ message_row_id }, { attempt }) => {
      const deferred = await delivery.attempt(message_row_id, { last: attempt >= SEND_RETRY.maxAttempts });
      if (deferred > 0) throw new Error(`${deferred} recipient(s) deferred by the relay; retrying`);
    },
  });
}
