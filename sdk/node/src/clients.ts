import { bindOperations } from './bind.js';
import { type MailboxApi, mailboxOperations } from './generated/mailbox-v0-operations.js';
import { platformOperations, type UnderstudyApi } from './generated/platform-v1-operations.js';
import { type ClientOptions, HttpClient } from './http-client.js';
import { type HeaderSource, type RawBody, type VerifyOptions, verifyWebhook } from './webhooks.js';

/**
 * The platform API (/v1): `new Understudy({ apiKey, baseUrl })`, then one namespace per area,
 * e.g. `client.scenarios.create({ … })`, `client.scenarios.update(id, { name })`,
 * `for await (const s of client.scenarios.list())`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the namespaces are assigned in the constructor from the generated table.
export class Understudy {
  constructor(options: ClientOptions) {
    // The platform runs every write once per Idempotency-Key, so writes are retried like reads.
    Object.assign(
      this,
      bindOperations(platformOperations, new HttpClient(options, { honoursIdempotencyKeys: true })),
    );
  }
}
export interface Understudy extends UnderstudyApi {}

/**
 * The mailbox API (/v0, its own base address): `new Mailbox({ apiKey, baseUrl })`, e.g.
 * `mailbox.inboxes.create({ username })`, `mailbox.messages.send(inboxId, { to, subject, text })`.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the namespaces are assigned in the constructor from the generated table.
export class Mailbox {
  constructor(options: ClientOptions) {
    // The mailbox takes no Idempotency-Key: a write is retried only after a 429 (it did not run).
    Object.assign(
      this,
      bindOperations(mailboxOperations, new HttpClient(options, { honoursIdempotencyKeys: false })),
    );
  }

  /** `verifyWebhook` for the mailbox's deliveries: `X-Mailbox-Signature` unless `schemes` says otherwise. */
  verifyWebhook<Event = unknown>(rawBody: RawBody, headers: HeaderSource, options: VerifyOptions): Event {
    return verifyWebhook<Event>(rawBody, headers, { schemes: ['mailbox'], ...options });
  }
}
export interface Mailbox extends MailboxApi {}
