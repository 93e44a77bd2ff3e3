import { Resolver } from 'node:dns/promises';

/** The lookups domain verification needs; a fake in tests, a real resolver otherwise. */
export interface DomainDns {
  txt(name: string): Promise<string[]>;
  mx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/**
 * node:dns with its own servers (MAILBOX_DNS_SERVERS, `ip` or `ip:port`), so verification asks
 * the resolvers the operator chose and tests can point it at a local DNS server.
 */
export class ResolverDns implements DomainDns {
  private readonly resolver: Resolver;

  constructor(servers: string[], options: { timeoutMs?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 3_000, tries: 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async txt(name: string): Promise<string[]> {
    try {
      return (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (error) {
      if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  }

  async mx(name: string): Promise<Array<{ exchange: string; priority: number }>> {
    try {
      return await this.resolver.resolveMx(name);
    } catch (error) {
      if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  }
}
