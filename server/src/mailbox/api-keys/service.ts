import type { Clock } from '../../core/clock.ts';
import { prefixedSecret, sha256Hex } from '../../core/crypto/hashing.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { DEFAULT_NAMESPACE, type MailboxPrincipal, notFound, requireAdmin } from '../auth/principal.ts';
import { SCOPED_KEY_PREFIX, scopedKeySubject } from '../auth/resolver.ts';
import { isGrantableName, SCOPE_NAMES } from '../auth/scopes.ts';
import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';
import { inboxesRepository } from '../inboxes/repository.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { podsRepository } from '../pods/repository.ts';
import { webhooksRepository } from '../webhooks/repository.ts';
import { type ApiKeyRow, apiKeysRepository, type NewApiKey } from './repository.ts';

export interface CreateApiKeyInput {
  name: string;
  inbox_ids?: string[];
  pod_id?: string;
  scopes?: string[];
  permissions?: string[];
}

export const toApiKey = (row: NewApiKey | ApiKeyRow) => ({
  key_id: row.id,
  name: row.name,
  prefix: row.secret_prefix,
  inbox_ids: row.inbox_ids,
  pod_id: row.pod_id,
  scopes: row.scopes,
  last_used_at: row.last_used_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

/**
 * Scoped `aik_` keys, managed by the admin key only. Stored as a SHA-256 of a 192-bit random
 * secret; revocation is immediate (the resolver looks keys up on every request).
 */
/** Recorded on the webhooks of a revoked key (GET shows it as `disabled_reason`). */
export const KEY_REVOKED_REASON = 'api key revoked';

export class ApiKeyService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      pageTokens: PageTokens;
      /** Tells every instance, after commit, to close the key's sockets (the event bus). */
      announceRevocation: (subject: string) => Promise<void>;
    },
  ) {}

  /** The new key with its secret, which is shown once and never stored. */
  async create(
    principal: MailboxPrincipal,
    input: CreateApiKeyInput,
  ): Promise<{ row: NewApiKey; secret: string }> {
    requireAdmin(principal);
    const { db } = this.deps;
    if (input.scopes && input.permissions)
      throw invalidParam('permissions', 'Send scopes or permissions, not both.');
    const field = input.permissions ? 'permissions' : 'scopes';
    const names = input.scopes ?? input.permissions ?? [];
    names.forEach((name, i) => {
      if (!isGrantableName(name))
        throw invalidParam(
          `${field}[${i}]`,
          `Unknown scope ${JSON.stringify(name)}: use one of ${SCOPE_NAMES.join(', ')}, \`*\` or \`<resource>.*\`.`,
        );
    });
    const scopes = [...new Set(names)];
    const inboxIds = [...new Set((input.inbox_ids ?? []).map((id) => id.toLowerCase()))];
    // The key lives in the namespace of what it is restricted to (the default namespace otherwise).
    const namespaces = new Set<string>();
    if (inboxIds.length > 0) {
      const rows = await inboxesRepository.placesOf(db, inboxIds);
      const missing = inboxIds.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) throw invalidParam('inbox_ids', `No such inbox: ${missing.join(', ')}`);
      for (const row of rows) namespaces.add(row.namespace_id);
    }
    if (input.pod_id) {
      const pod = await podsRepository.byId(db, input.pod_id);
      if (!pod) throw notFound('pod', 'pod_id');
      namespaces.add(pod.namespace_id);
    }
    if (namespaces.size > 1)
      throw new AppError('parameter_invalid', 'inbox_ids and pod_id must belong to one namespace.', {
        param: 'inbox_ids',
      });
    const secret = prefixedSecret(SCOPED_KEY_PREFIX, 24);
    const row: NewApiKey = {
      id: newId('key'),
      namespace_id: [...namespaces][0] ?? DEFAULT_NAMESPACE,
      name: input.name,
      secret_prefix: secret.slice(0, 10),
      lookup_hash: sha256Hex(secret),
      inbox_ids: inboxIds,
      pod_id: input.pod_id ?? null,
      scopes,
      last_used_at: null,
      created_at: this.deps.clock.now(),
    };
    await apiKeysRepository.insert(db, row);
    return { row, secret };
  }

  async list(principal: MailboxPrincipal, query: ListQuery) {
    requireAdmin(principal);
    const page = this.deps.pageTokens.parse(query, 'api-keys', principal.subject);
    const rows = await apiKeysRepository.listActive(this.deps.db, keyset(page));
    return this.deps.pageTokens.envelope('api_keys', page, rows, byCreation, toApiKey);
  }

  /**
   * Revokes the key and stops what it alone authorised: its webhooks are disabled (deliveries are
   * held, as for a pause, until someone who reaches them enables them again) and its open
   * WebSockets on every instance are closed with 4401.
   */
  async revoke(principal: MailboxPrincipal, keyId: string): Promise<void> {
    requireAdmin(principal);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await apiKeysRepository.revoke(trx, keyId, now))) throw notFound('API key', 'key_id');
      await webhooksRepository.disableCreatedBy(trx, keyId, KEY_REVOKED_REASON, now);
    });
    // The key is refused from the next request whatever happens here; only open sockets wait on it.
    await this.deps.announceRevocation(scopedKeySubject(keyId)).catch(() => {});
  }
}
