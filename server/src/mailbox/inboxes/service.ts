import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import type { ObjectStorage } from '../../core/storage/types.ts';
import { type MailboxPrincipal, notFound } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { domainsRepository } from '../domains/repository.ts';
import { draftsRepository } from '../drafts/repository.ts';
import { messagesRepository } from '../messages/repository.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { podsRepository } from '../pods/repository.ts';
import { toInbox } from './present.ts';
import { type InboxRow, inboxesRepository, reaches } from './repository.ts';

export interface CreateInboxInput {
  username?: string;
  domain?: string;
  display_name?: string;
  pod_id?: string;
  client_id?: string;
}

/** The inbox if the principal reaches it; otherwise 404, exactly as for an absent one. */
export async function loadInbox(
  db: Executor,
  principal: MailboxPrincipal,
  inboxId: string,
): Promise<InboxRow> {
  const inbox = await inboxesRepository.byId(db, inboxId);
  if (!inbox || !reaches(principal.reach, inbox)) throw notFound('inbox', 'inbox_id');
  return inbox;
}

export class InboxService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      storage: ObjectStorage;
      pageTokens: PageTokens;
      mailDomain: string;
    },
  ) {}

  /** The inbox if the principal reaches it; otherwise 404 (see loadInbox). */
  get(principal: MailboxPrincipal, inboxId: string): Promise<InboxRow> {
    return loadInbox(this.deps.db, principal, inboxId);
  }

  /** Whether the inbox exists and the principal reaches it, for callers that answer without a 404. */
  async isReachable(principal: MailboxPrincipal, inboxId: string): Promise<boolean> {
    const inbox = await inboxesRepository.byId(this.deps.db, inboxId);
    return inbox !== undefined && reaches(principal.reach, inbox);
  }

  /** The inboxes the principal reaches, newest first, optionally of one pod. */
  async list(principal: MailboxPrincipal, query: ListQuery & { pod_id?: string }) {
    const { db, pageTokens } = this.deps;
    const page = pageTokens.parse(query, 'inboxes', principal.subject);
    const rows = await inboxesRepository.list(db, principal.reach, keyset(page), query.pod_id);
    return pageTokens.envelope('inboxes', page, rows, byCreation, toInbox);
  }

  /** Changes the display name; without one (`{}`) nothing changes and the inbox is answered. */
  async update(principal: MailboxPrincipal, inboxId: string, input: { display_name?: string | null }) {
    const { db, clock } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    if (input.display_name === undefined) return inbox;
    return inboxesRepository.update(db, inbox.id, {
      display_name: input.display_name,
      updated_at: clock.now(),
    });
  }

  async create(principal: MailboxPrincipal, input: CreateInboxInput): Promise<InboxRow> {
    const { db, clock } = this.deps;
    if (principal.reach.inboxIds !== null) {
      throw new AppError('permission_denied', 'A key restricted to inboxes cannot create inboxes.');
    }
    let namespaceId = principal.homeNamespaceId;
    let podId: string | null = principal.reach.podId;
    if (input.pod_id !== undefined) {
      const pod = await podsRepository.byId(db, input.pod_id);
      const visible =
        pod && (principal.reach.namespaceId === null || pod.namespace_id === principal.reach.namespaceId);
      if (!pod || !visible || (podId !== null && pod.id !== podId)) throw notFound('pod', 'pod_id');
      podId = pod.id;
      namespaceId = pod.namespace_id;
    } else if (podId !== null && principal.reach.namespaceId !== null) {
      namespaceId = principal.reach.namespaceId;
    }
    if (input.client_id) {
      const existing = await inboxesRepository.byClientId(db, namespaceId, input.client_id);
      if (existing) return existing;
    }
    const domain = (input.domain ?? this.deps.mailDomain).toLowerCase();
    if (domain !== this.deps.mailDomain.toLowerCase()) {
      if (!(await domainsRepository.isVerifiedIn(db, namespaceId, domain))) {
        throw invalidParam(
          'domain',
          `Domain ${domain} is not ${this.deps.mailDomain} or a verified domain of yours.`,
        );
      }
    }
    const username = (input.username ?? `agent-${randomBytes(5).toString('hex')}`).toLowerCase();
    const id = `${username}@${domain}`;
    const now = clock.now();
    const row: InboxRow = {
      id,
      namespace_id: namespaceId,
      pod_id: podId,
      username,
      domain,
      display_name: input.display_name ?? null,
      client_id: input.client_id ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await inboxesRepository.insert(db, row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('duplicate', `The address ${id} is taken.`, { param: 'username', cause: error });
      }
      // foreign_key_violation: the pod was deleted since it was read (DELETE /pods locks it first).
      if (podId !== null && (error as { code?: string } | null)?.code === '23503')
        throw notFound('pod', 'pod_id');
      throw error;
    }
    return row;
  }

  async delete(principal: MailboxPrincipal, inboxId: string): Promise<void> {
    const { db, storage } = this.deps;
    const inbox = await loadInbox(db, principal, inboxId);
    const messages = await messagesRepository.rawKeysIn(db, inbox.id);
    const attachmentKeys = messages.length
      ? await messagesRepository.attachmentKeysOf(
          db,
          messages.map((m) => m.id),
        )
      : [];
    const draftAttachments = await draftsRepository.attachmentsIn(db, inbox.id);
    await inboxesRepository.delete(db, inbox.id);
    // The rows are gone; the stored bytes follow (best effort: a leftover object is unreachable).
    const keys = [
      ...messages.map((m) => m.raw_key).filter((key): key is string => key !== null),
      ...attachmentKeys.map((a) => a.storage_key),
      ...draftAttachments.flatMap((d) => d.attachments.map((a) => a.storage_key)),
    ];
    await Promise.allSettled(keys.map((key) => storage.delete(key)));
  }
}
