import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { isUniqueViolation } from '../../core/db/errors.ts';
import { AppError, invalidParam } from '../../core/http/errors.ts';
import { type MailboxPrincipal, notFound, requireUnrestricted } from '../auth/principal.ts';
import type { Executor } from '../db.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { byCreation, keyset, type ListQuery, type PageTokens } from '../pagination.ts';
import { podsRepository } from '../pods/repository.ts';
import type { DomainDns } from './dns.ts';
import { type DomainRow, domainsRepository } from './repository.ts';

export interface DnsRecord {
  type: 'TXT' | 'MX';
  name: string;
  value: string;
  priority: number | null;
  purpose: 'verification' | 'inbound' | 'spf' | 'dkim';
  status: 'pending' | 'verified' | 'missing' | 'invalid';
}

const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const DKIM_SELECTOR = 'mbx1';
export const VERIFICATION_PREFIX = '_mailbox-verification';

export class DomainService {
  constructor(
    private readonly deps: {
      db: Executor;
      clock: Clock;
      secretBox: SecretBox;
      recorder: EventRecorder;
      dns: DomainDns;
      pageTokens: PageTokens;
      mailDomain: string;
    },
  ) {}

  /** The records to publish, with the state of the last check when there was one. */
  records(
    row: DomainRow,
    statuses: Partial<Record<DnsRecord['purpose'], DnsRecord['status']>> = {},
  ): DnsRecord[] {
    const fallback = row.status === 'verified' ? 'verified' : 'pending';
    const mailHost = this.deps.mailDomain;
    return [
      {
        type: 'TXT',
        name: `${VERIFICATION_PREFIX}.${row.id}`,
        value: `mailbox-verification=${row.verification_token}`,
        priority: null,
        purpose: 'verification',
        status: statuses.verification ?? fallback,
      },
      {
        type: 'MX',
        name: row.id,
        value: mailHost,
        priority: 10,
        purpose: 'inbound',
        status: statuses.inbound ?? fallback,
      },
      {
        type: 'TXT',
        name: row.id,
        value: `v=spf1 include:${mailHost} ~all`,
        priority: null,
        purpose: 'spf',
        status: statuses.spf ?? fallback,
      },
      {
        type: 'TXT',
        name: `${row.dkim_selector}._domainkey.${row.id}`,
        value: `v=DKIM1; k=rsa; p=${row.dkim_public_key}`,
        priority: null,
        purpose: 'dkim',
        status: statuses.dkim ?? fallback,
      },
    ];
  }

  visible(principal: MailboxPrincipal, row: DomainRow | undefined): row is DomainRow {
    if (!row) return false;
    if (principal.reach.namespaceId !== null && row.namespace_id !== principal.reach.namespaceId)
      return false;
    if (principal.reach.podId !== null && row.pod_id !== principal.reach.podId) return false;
    return true;
  }

  /** The domains the principal reaches, newest first. */
  async list(principal: MailboxPrincipal, query: ListQuery) {
    const { db, pageTokens } = this.deps;
    const page = pageTokens.parse(query, 'domains', principal.subject);
    const rows = await domainsRepository.list(db, principal.reach, keyset(page));
    return pageTokens.envelope('domains', page, rows, byCreation, (r) => this.present(r));
  }

  async get(principal: MailboxPrincipal, domainId: string): Promise<DomainRow> {
    const row = await domainsRepository.byId(this.deps.db, domainId.toLowerCase());
    if (!this.visible(principal, row)) throw notFound('domain', 'domain_id');
    return row;
  }

  async create(principal: MailboxPrincipal, input: { domain: string; pod_id?: string }): Promise<DomainRow> {
    requireUnrestricted(principal, 'add domains');
    const domain = input.domain.trim().toLowerCase().replace(/\.$/, '');
    if (!HOSTNAME.test(domain))
      throw invalidParam('domain', 'domain must be a fully qualified domain name, e.g. mail.example.com.');
    if (domain === this.deps.mailDomain.toLowerCase())
      throw invalidParam('domain', 'That is the service domain itself.');
    let namespaceId = principal.homeNamespaceId;
    let podId: string | null = null;
    if (input.pod_id) {
      const pod = await podsRepository.byId(this.deps.db, input.pod_id);
      if (!pod || (principal.reach.namespaceId !== null && pod.namespace_id !== principal.reach.namespaceId))
        throw notFound('pod', 'pod_id');
      podId = pod.id;
      namespaceId = pod.namespace_id;
    }
    // A per-domain DKIM key; only its public half ever leaves the service.
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = this.deps.clock.now();
    const row: DomainRow = {
      id: domain,
      namespace_id: namespaceId,
      pod_id: podId,
      status: 'pending',
      verification_token: randomBytes(16).toString('hex'),
      dkim_selector: DKIM_SELECTOR,
      dkim_public_key: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      dkim_private_key_sealed: this.deps.secretBox.seal(
        privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ),
      last_checked_at: null,
      last_error: null,
      verified_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await domainsRepository.insert(this.deps.db, row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('duplicate', `The domain ${domain} is already registered.`, {
          param: 'domain',
          cause: error,
        });
      }
      throw error;
    }
    return row;
  }

  /** Looks the records up; the first complete success marks the domain verified and fires `domain.verified`. */
  async verify(
    principal: MailboxPrincipal,
    domainId: string,
  ): Promise<{ row: DomainRow; records: DnsRecord[] }> {
    requireUnrestricted(principal, 'verify domains');
    const row = await this.get(principal, domainId);
    const { dns, mailDomain } = this.deps;
    const statuses: Partial<Record<DnsRecord['purpose'], DnsRecord['status']>> = {};
    let lookupError: string | null = null;
    try {
      const [verification, apex, mx, dkim] = await Promise.all([
        dns.txt(`${VERIFICATION_PREFIX}.${row.id}`),
        dns.txt(row.id),
        dns.mx(row.id),
        dns.txt(`${row.dkim_selector}._domainkey.${row.id}`),
      ]);
      statuses.verification = verification.some(
        (v) => v.trim() === `mailbox-verification=${row.verification_token}`,
      )
        ? 'verified'
        : verification.length
          ? 'invalid'
          : 'missing';
      const mailHost = mailDomain.toLowerCase().replace(/\.$/, '');
      statuses.inbound = mx.some((r) => r.exchange.toLowerCase().replace(/\.$/, '') === mailHost)
        ? 'verified'
        : mx.length
          ? 'invalid'
          : 'missing';
      const spf = apex.filter((v) => v.toLowerCase().startsWith('v=spf1'));
      statuses.spf = spf.some((v) => v.toLowerCase().includes(`include:${mailHost}`))
        ? 'verified'
        : spf.length
          ? 'invalid'
          : 'missing';
      const compact = (v: string) => v.replace(/\s+/g, '');
      statuses.dkim = dkim.some((v) => compact(v).includes(`p=${row.dkim_public_key}`))
        ? 'verified'
        : dkim.length
          ? 'invalid'
          : 'missing';
    } catch (error) {
      lookupError = `DNS lookup failed: ${(error as Error).message}`;
    }
    const allVerified =
      !lookupError &&
      Object.values(statuses).length === 4 &&
      Object.values(statuses).every((s) => s === 'verified');
    const now = this.deps.clock.now();
    const updated = await this.deps.recorder.transaction(async (trx, emit) => {
      const current = await domainsRepository.lockForUpdate(trx, row.id);
      const becameVerified = allVerified && current.status !== 'verified';
      const next = await domainsRepository.recordCheck(trx, row.id, {
        // Once verified a domain stays verified: a later failed check is reported, not enforced.
        status: current.status === 'verified' || allVerified ? 'verified' : 'failed',
        last_checked_at: now,
        last_error: lookupError ?? (allVerified ? null : describeFailures(statuses)),
        verified_at: becameVerified ? now : current.verified_at,
        updated_at: now,
      });
      if (becameVerified) {
        await emit(
          'domain.verified',
          { namespace_id: next.namespace_id, pod_id: next.pod_id, inbox_id: null },
          { domain: this.present(next, this.records(next, statuses)) },
        );
      }
      return next;
    });
    return { row: updated, records: this.records(updated, statuses) };
  }

  present(row: DomainRow, records = this.records(row)) {
    return {
      domain_id: row.id,
      domain: row.id,
      pod_id: row.pod_id,
      status: row.status,
      records,
      last_checked_at: row.last_checked_at?.toISOString() ?? null,
      last_error: row.last_error,
      verified_at: row.verified_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }
}

function describeFailures(statuses: Partial<Record<DnsRecord['purpose'], DnsRecord['status']>>): string {
  return Object.entries(statuses)
    .filter(([, status]) => status !== 'verified')
    .map(([purpose, status]) => `${purpose} record ${status}`)
    .join('; ');
}
