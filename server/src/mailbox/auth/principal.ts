import { AppError } from '../../core/http/errors.ts';
import type { InboxReach } from '../inboxes/repository.ts';
import type { MailboxScope } from './scopes.ts';

export const DEFAULT_NAMESPACE = 'ns_default';

/**
 * Who calls the mailbox API. `reach` is what the credential covers: the admin key every
 * namespace (null), a platform key its workspace's namespace, a scoped key its namespace
 * narrowed to a pod and/or a list of inboxes.
 */
export interface MailboxPrincipal {
  kind: 'admin' | 'platform' | 'scoped';
  /** Rate-limit budget owner; never the secret itself. */
  subject: string;
  /** Where this principal creates namespace-level things (pods, domains, webhooks, block lists). */
  homeNamespaceId: string;
  reach: InboxReach;
  keyId: string | null;
  accountId: string | null;
  /**
   * The scopes of the set (auth/scopes.ts) this credential grants; null: all of them (the admin
   * key, and platform or scoped keys created without scopes).
   */
  grants: ReadonlySet<MailboxScope> | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    mailbox: MailboxPrincipal;
  }
}

/** No narrowing to a pod or inbox list: may manage namespace-level resources. */
export function isUnrestricted(principal: MailboxPrincipal): boolean {
  return principal.reach.podId === null && principal.reach.inboxIds === null;
}

export function requireUnrestricted(principal: MailboxPrincipal, what: string): void {
  if (!isUnrestricted(principal)) {
    throw new AppError('permission_denied', `A key restricted to inboxes or a pod cannot ${what}.`);
  }
}

export function requireAdmin(principal: MailboxPrincipal): void {
  if (principal.kind !== 'admin') {
    throw new AppError('permission_denied', 'Only the admin key can manage API keys.');
  }
}

/** The one 404 of the service: absent and out-of-scope look the same, so nothing can be probed. */
export const notFound = (what = 'resource', param?: string) =>
  new AppError('not_found', `not found: no such ${what}.`, param ? { param } : {});
