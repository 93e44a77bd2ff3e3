import type { Clock } from '../../core/clock.ts';
import { safeEqual, sha256Hex } from '../../core/crypto/hashing.ts';
import { type Role, roleGrants } from '../../core/http/roles.ts';
import { apiKeysRepository } from '../api-keys/repository.ts';
import type { Executor } from '../db.ts';
import { namespacesRepository } from '../namespaces/repository.ts';
import { DEFAULT_NAMESPACE, type MailboxPrincipal } from './principal.ts';
import { grantsOf, platformGrantsOf } from './scopes.ts';

/**
 * A platform key reaches the mailbox as far as its scopes and its creator's role allow: a key made
 * by a member who is no longer an admin or owner reads and sends no mail (docs/teams.md).
 */
function platformGrants(identity: { scopes: string[] | null; role: Role }) {
  const scopes = (identity.scopes ?? ['mailbox:read', 'mailbox:write']).filter((scope) =>
    roleGrants(identity.role, scope),
  );
  if (identity.scopes === null && scopes.length === 2) return null;
  return platformGrantsOf(scopes);
}

/** The platform's `svc_` key check; identities it returns may be cached up to 60 s. */
export interface PlatformKeyVerifier {
  /** `scopes`: null for a key with full access, else the scopes it was created with. */
  verify(
    secret: string,
  ): Promise<{ accountId: string; subject: string; scopes: string[] | null; role: Role } | null>;
}

/** The platform's user tokens: who signed in, and their role in their workspace now. */
export interface PlatformUserVerifier {
  verify(token: string): Promise<{ accountId: string; membershipId: string; role: Role } | null>;
}

/** A JWT's shape (three base64url parts): told apart from keys before any verification. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export const SCOPED_KEY_PREFIX = 'aik_';
/** A scoped key's principal subject: also what its revocation is announced by. */
export const scopedKeySubject = (keyId: string) => `aik:${keyId}`;
/** A platform key's principal subject, from the platform verifier's own subject of the key. */
export const platformKeySubject = (verifierSubject: string) => `svc:${verifierSubject}`;
/** `last_used_at` of scoped keys is minute-accurate: a write on every request would cost more than it tells. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Turns a bearer token into a principal. Scoped keys are looked up on every request (by the
 * SHA-256 of the key), so a revocation applies to the very next request; platform keys go
 * through the platform's verifier, whose cache bounds revocation lag to at most a minute.
 */
export class MailboxCredentialResolver {
  private readonly namespaceByAccount = new Map<string, string>();
  /** Keys whose unknown scope names were logged already (once per key and process is enough). */
  private readonly warnedKeys = new Set<string>();

  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      adminKey: string | null;
      platformKeys: PlatformKeyVerifier | null;
      /** Null: user tokens are not accepted (the OpenAPI build, a mailbox without the platform). */
      platformUsers?: PlatformUserVerifier | null;
      logger?: { warn(details: object, message: string): void };
    },
  ) {}

  async resolve(token: string): Promise<MailboxPrincipal | null> {
    const { adminKey } = this.deps;
    if (adminKey && safeEqual(token, adminKey)) {
      return {
        kind: 'admin',
        subject: `admin:${sha256Hex(token).slice(0, 16)}`,
        homeNamespaceId: DEFAULT_NAMESPACE,
        reach: { namespaceId: null, podId: null, inboxIds: null },
        keyId: null,
        accountId: null,
        grants: null,
      };
    }
    if (token.startsWith(SCOPED_KEY_PREFIX)) return this.scoped(token);
    if (token.startsWith('svc_') && this.deps.platformKeys) return this.platform(token);
    if (JWT_SHAPE.test(token) && this.deps.platformUsers) return this.user(token);
    return null;
  }

  /**
   * A signed-in member (the dashboard's mailbox view): their workspace's namespace, as far as their
   * role allows: the mailbox is admin work (docs/teams.md), so other roles are refused everything.
   */
  private async user(token: string): Promise<MailboxPrincipal | null> {
    const identity = await this.deps.platformUsers!.verify(token);
    if (!identity) return null;
    const namespaceId = await this.namespaceOf(identity.accountId);
    return {
      kind: 'platform',
      subject: `user:${identity.membershipId}`,
      homeNamespaceId: namespaceId,
      reach: { namespaceId, podId: null, inboxIds: null },
      keyId: null,
      accountId: identity.accountId,
      grants: platformGrants({ scopes: null, role: identity.role }),
    };
  }

  private async namespaceOf(accountId: string): Promise<string> {
    let namespaceId = this.namespaceByAccount.get(accountId);
    if (!namespaceId) {
      namespaceId = await namespacesRepository.ensureForAccount(
        this.deps.db,
        accountId,
        this.deps.clock.now(),
      );
      this.namespaceByAccount.set(accountId, namespaceId);
    }
    return namespaceId;
  }

  private async scoped(token: string): Promise<MailboxPrincipal | null> {
    const lookupHash = sha256Hex(token);
    const row = await apiKeysRepository.findActiveByHash(this.deps.db, lookupHash);
    if (!row) return null;
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    if (!row.last_used_at || row.last_used_at <= stale) {
      // Of the requests that find the stamp stale at once, one writes; a lost stamp fails nobody.
      await apiKeysRepository.markUsed(this.deps.db, row.id, now, stale).catch(() => {});
    }
    const { grants, unknown } = grantsOf(row.scopes);
    if (unknown.length > 0 && !this.warnedKeys.has(row.id)) {
      this.warnedKeys.add(row.id);
      this.deps.logger?.warn(
        { keyId: row.id, unknown },
        'scoped key holds scope names outside the set; they grant nothing',
      );
    }
    return {
      kind: 'scoped',
      subject: scopedKeySubject(row.id),
      homeNamespaceId: row.namespace_id,
      reach: {
        namespaceId: row.namespace_id,
        podId: row.pod_id,
        inboxIds: row.inbox_ids.length > 0 ? row.inbox_ids : null,
      },
      keyId: row.id,
      accountId: null,
      // A key created without scopes has full access (within its reach), as before scopes existed.
      grants: row.scopes.length === 0 ? null : grants,
    };
  }

  private async platform(token: string): Promise<MailboxPrincipal | null> {
    const identity = await this.deps.platformKeys!.verify(token);
    if (!identity) return null;
    const namespaceId = await this.namespaceOf(identity.accountId);
    return {
      kind: 'platform',
      subject: platformKeySubject(identity.subject),
      homeNamespaceId: namespaceId,
      reach: { namespaceId, podId: null, inboxIds: null },
      keyId: null,
      accountId: identity.accountId,
      grants: platformGrants(identity),
    };
  }
}
