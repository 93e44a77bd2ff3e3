import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/http/errors.ts';
import { type MailboxPrincipal, notFound, requireUnrestricted } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { inboxesRepository } from '../inboxes/repository.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { toPod } from './present.ts';
import { type PodRow, podsRepository } from './repository.ts';

/** Pods group inboxes (and domains) of one namespace, e.g. one per end customer of an agent product. */
export class PodService {
  constructor(private readonly deps: { db: Executor; clock: Clock; pageTokens: PageTokens }) {}

  /** The new pod; the same client_id answers the pod it created first. */
  async create(principal: MailboxPrincipal, input: { name: string; client_id?: string }): Promise<PodRow> {
    const { db } = this.deps;
    requireUnrestricted(principal, 'create pods');
    const namespaceId = principal.homeNamespaceId;
    if (input.client_id) {
      const existing = await podsRepository.byClientId(db, namespaceId, input.client_id);
      if (existing) return existing;
    }
    const now = this.deps.clock.now();
    const row: PodRow = {
      id: newId('pod'),
      namespace_id: namespaceId,
      name: input.name,
      client_id: input.client_id ?? null,
      created_at: now,
      updated_at: now,
    };
    await podsRepository.insert(db, row);
    return row;
  }

  async list(principal: MailboxPrincipal, query: ListQuery) {
    const { db, pageTokens } = this.deps;
    const page = pageTokens.parse(query, 'pods', principal.subject);
    let podIds: string[] | null = principal.reach.podId ? [principal.reach.podId] : null;
    if (podIds === null && principal.reach.inboxIds !== null) {
      // A key restricted to inboxes sees the pods they are in.
      const places = await inboxesRepository.placesOf(db, principal.reach.inboxIds);
      podIds = places.map((r) => r.pod_id).filter((id): id is string => id !== null);
    }
    const rows = await podsRepository.list(
      db,
      { namespaceId: principal.reach.namespaceId, podIds },
      keyset(page),
    );
    return pageTokens.envelope('pods', page, rows, byCreation, toPod);
  }

  async get(principal: MailboxPrincipal, podId: string): Promise<PodRow> {
    return loadPod(this.deps.db, principal, podId);
  }

  /**
   * Deletes an empty pod, with its own allow and block lists (and the revoked keys restricted to
   * it). A pod that still has inboxes, domains, unrevoked keys restricted to it or webhooks is a
   * 409 `resource_conflict` naming them: deleting it would take inboxes with their mail, or leave
   * keys and webhooks reaching nothing; delete those first. The pod's row is locked meanwhile, so
   * an inbox being created in it either lands before the check (and is counted) or waits and fails.
   */
  async delete(principal: MailboxPrincipal, podId: string): Promise<void> {
    const { db } = this.deps;
    const pod = await loadPod(db, principal, podId);
    requireUnrestricted(principal, 'delete pods');
    await db.transaction().execute(async (trx) => {
      if (!(await podsRepository.lockForUpdate(trx, pod.id))) throw notFound('pod', 'pod_id');
      const left = Object.entries(await podsRepository.dependents(trx, pod.id)).filter(([, n]) => n > 0);
      if (left.length) {
        const named = left
          .map(([what, n]) => `${n} ${DEPENDENTS[what as keyof typeof DEPENDENTS][n === 1 ? 0 : 1]}`)
          .join(', ');
        throw new AppError('resource_conflict', `The pod still has ${named}: delete them first.`, {
          param: 'pod_id',
        });
      }
      await podsRepository.delete(trx, pod.id);
    });
  }
}

const DEPENDENTS = {
  inboxes: ['inbox', 'inboxes'],
  domains: ['domain', 'domains'],
  webhooks: ['webhook', 'webhooks'],
  api_keys: ['unrevoked key restricted to it', 'unrevoked keys restricted to it'],
} as const;

/**
 * The pod if the principal reaches all of it (keys restricted to inboxes reach none); otherwise
 * 404, exactly as for an absent one.
 */
export async function loadPod(db: Executor, principal: MailboxPrincipal, podId: string): Promise<PodRow> {
  const pod = await podsRepository.byId(db, podId);
  const visible =
    pod &&
    (principal.reach.namespaceId === null || pod.namespace_id === principal.reach.namespaceId) &&
    (principal.reach.podId === null || pod.id === principal.reach.podId) &&
    principal.reach.inboxIds === null;
  if (!visible) throw notFound('pod', 'pod_id');
  return pod;
}
