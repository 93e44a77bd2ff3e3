import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isAddressAllowed, type OutboundPolicy } from './address-policy.ts';
import { OutboundError } from './errors.ts';

/** Resolves a hostname to every address it has. Injectable so tests never touch real DNS. */
export type LookupFn = (hostname: string) => Promise<string[]>;

export const systemLookup: LookupFn = async (hostname) => {
  const records = await dnsLookup(hostname, { all: true });
  return records.map((record) => record.address);
};

/** Syntax and scheme checks only: cheap, no network, done before anything is dispatched. */
export function parseTargetUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OutboundError('invalid_url', `URL scheme ${url.protocol} is not supported; use https:`);
  }
  if (url.protocol === 'http:' && policy.requireHttps) {
    throw new OutboundError('https_required', 'URL must use https:');
  }
  // Credentials in the URL would be sent as-is to whoever answers; make the caller use a header.
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('invalid_url', 'URL must not contain credentials');
  }
  return url;
}

/** URL.hostname keeps IPv6 literals bracketed; DNS and net want them bare. */
export function bareHostname(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function assertAllowed(host: string, address: string, policy: OutboundPolicy): void {
  if (isAddressAllowed(address, policy)) return;
  const { range } = classifyAddress(address);
  const shown = host === address ? address : `${host} (${address})`;
  throw new OutboundError('blocked_address', `${shown} is in a blocked range (${range ?? 'unknown'})`);
}

/**
 * Resolves `host` (IP literals skip DNS) and checks every address: if any one is disallowed the
 * whole host is refused, since we cannot know which one a later connection would get.
 */
export async function resolveAllowed(
  host: string,
  policy: OutboundPolicy,
  lookup: LookupFn,
): Promise<string[]> {
  if (isIP(host) !== 0) {
    assertAllowed(host, host, policy);
    return [host];
  }
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch (err) {
    throw new OutboundError('dns_failure', `could not resolve ${host}`, { cause: err });
  }
  if (addresses.length === 0) throw new OutboundError('dns_failure', `${host} has no addresses`);
  for (const address of addresses) assertAllowed(host, address, policy);
  return addresses;
}

/**
 * Validates a URL up front (e.g. when a customer registers a webhook endpoint). The client does
 * not rely on this result: it resolves and checks again for every connection it opens.
 */
export async function vetUrl(
  url: string,
  policy: OutboundPolicy,
  lookup: LookupFn = systemLookup,
): Promise<{ url: URL; addresses: string[] }> {
  const parsed = parseTargetUrl(url, policy);
  const addresses = await resolveAllowed(bareHostname(parsed), policy, lookup);
  return { url: parsed, addresses };
}
