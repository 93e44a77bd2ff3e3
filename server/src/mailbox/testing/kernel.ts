import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../core/clock.ts';
import { SecretBox } from '../../core/crypto/secret-box.ts';
import type { Database } from '../../core/db/database.ts';
import { DeliveryQueue } from '../../core/delivery/queue.ts';
import { LocalStorage } from '../../core/storage/local.ts';
import { type EventBus, LocalEventBus } from '../events/bus.ts';
import { EventRecorder } from '../events/recorder.ts';
import type { MailboxEvent } from '../events/types.ts';
import { InboundMail } from '../messages/ingest.ts';
import { openTestDatabase } from './db.ts';

export const TEST_MAIL_DOMAIN = 'mail.test';

/** The mail pipeline without HTTP: database, fake clock, local storage, in-process event bus. */
export interface TestKernel {
  database: Database;
  clock: FakeClock;
  storage: LocalStorage;
  secretBox: SecretBox;
  bus: EventBus;
  queue: DeliveryQueue;
  recorder: EventRecorder;
  inbound: InboundMail;
  events: MailboxEvent[];
  addInbox(address: string, options?: { namespaceId?: string; podId?: string | null }): Promise<void>;
  close(): Promise<void>;
}

export async function openTestKernel(): Promise<TestKernel> {
  const database = await openTestDatabase();
  const clock = new FakeClock();
  const root = mkdtempSync(join(tmpdir(), 'mailbox-objects-'));
  const secretBox = new SecretBox(randomBytes(32));
  const storage = new LocalStorage({
    root,
    publicBaseUrl: 'http://localhost/storage',
    signingKey: randomBytes(32),
    clock,
  });
  const bus = new LocalEventBus();
  const events: MailboxEvent[] = [];
  await bus.subscribe((event) => events.push(event));
  const queue = new DeliveryQueue(clock);
  const recorder = new EventRecorder(database, clock, queue, bus);
  const inbound = new InboundMail({
    db: database.db,
    clock,
    storage,
    recorder,
    mailDomain: TEST_MAIL_DOMAIN,
  });
  return {
    database,
    clock,
    storage,
    secretBox,
    bus,
    queue,
    recorder,
    inbound,
    events,
    async addInbox(address, options = {}) {
      const [username, domain] = address.toLowerCase().split('@') as [string, string];
      const now = clock.now();
      await database.db
        .insertInto('mailbox_inboxes')
        .values({
          id: address.toLowerCase(),
          namespace_id: options.namespaceId ?? 'ns_default',
          pod_id: options.podId ?? null,
          username,
          domain,
          display_name: null,
          client_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async close() {
      await database.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A hand-written RFC 5322 message. */
export function mime(fields: {
  from: string;
  to: string;
  cc?: string;
  subject: string;
  messageId: string;
  inReplyTo?: string;
  references?: string;
  headers?: Record<string, string>;
  body?: string;
}): Buffer {
  const lines = [
    `From: ${fields.from}`,
    `To: ${fields.to}`,
    ...(fields.cc ? [`Cc: ${fields.cc}`] : []),
    `Subject: ${fields.subject}`,
    `Message-ID: ${fields.messageId}`,
    ...(fields.inReplyTo ? [`In-Reply-To: ${fields.inReplyTo}`] : []),
    ...(fields.references ? [`References: ${fields.references}`] : []),
    'Date: Sun, 01 Nov 2026 12:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    ...Object.entries(fields.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    '',
    fields.body ?? 'Hello.',
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}
