import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type Cidr = [IPv4 | IPv6, number];

export interface OutboundPolicy {
  /** Ranges that are blocked by default but explicitly permitted (OUTBOUND_ALLOW_CIDRS). */
  allowCidrs: string[];
  /** Refuse plain http: URLs. Production sets this; tests against local receivers do not. */
  requireHttps: boolean;
}

export interface AddressClassification {
  blocked: boolean;
  /** The blocked CIDR the address (or the IPv4 address it embeds) falls in. */
  range?: string;
}

function table(cidrs: string[]): Array<{ cidr: string; parsed: Cidr }> {
  return cidrs.map((cidr) => ({ cidr, parsed: ipaddr.parseCIDR(cidr) }));
}

// Everything that is not ordinary public unicast. More specific entries come first so the
// reported range is the most telling one (e.g. the metadata address rather than all of link-local).
const BLOCKED_V4 = table([
  '169.254.169.254/32', // cloud metadata (AWS, GCP, Azure, ...)
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT (also Alibaba metadata 100.100.100.200)
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '255.255.255.255/32', // broadcast
  '240.0.0.0/4', // reserved
]);

const BLOCKED_V6 = table([
  '::/128',
  '::1/128',
  'fd00:ec2::254/128', // AWS IPv6 metadata
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local, still routed internally by some stacks
  'ff00::/8', // multicast
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
  '100::/64', // discard-only
  '64:ff9b:1::/48', // local-use NAT64: translation target is site-specific
  '2001::/32', // Teredo: tunnels to an obfuscated IPv4 we cannot vouch for
]);

// Prefixes whose addresses carry an IPv4 address that is what actually gets reached.
const V4_IN_LAST_32 = table(['::ffff:0:0/96', '::/96', '64:ff9b::/96', '::ffff:0:0:0/96']);
const SIX_TO_FOUR: Cidr = ipaddr.parseCIDR('2002::/16');

function v4FromParts(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, SIIT, 6to4), if any. */
function embeddedV4(addr: IPv6): IPv4 | undefined {
  const p = addr.parts;
  if (V4_IN_LAST_32.some(({ parsed }) => addr.match(parsed))) return v4FromParts(p[6], p[7]);
  if (addr.match(SIX_TO_FOUR)) return v4FromParts(p[1], p[2]);
  return undefined;
}

/** Strict parse: only canonical literals (no "127.1" or "0x7f.1"), zone ids tolerated. */
function parseIp(ip: string): IPv4 | IPv6 | undefined {
  if (isIP(ip) === 0) return undefined;
  try {
    return ipaddr.parse(ip);
  } catch {
    return undefined;
  }
}

function findRange(addr: IPv4 | IPv6): string | undefined {
  if (addr.kind() === 'ipv4') return BLOCKED_V4.find(({ parsed }) => addr.match(parsed))?.cidr;
  const v6 = addr as IPv6;
  const direct = BLOCKED_V6.find(({ parsed }) => v6.match(parsed))?.cidr;
  if (direct) return direct;
  const v4 = embeddedV4(v6);
  return v4 ? findRange(v4) : undefined;
}

/** Pure classification of an IP literal; anything that is not a valid literal counts as blocked. */
export function classifyAddress(ip: string): AddressClassification {
  const addr = parseIp(ip);
  if (!addr) return { blocked: true, range: 'invalid' };
  const range = findRange(addr);
  return range ? { blocked: true, range } : { blocked: false };
}

function inCidr(addr: IPv4 | IPv6, cidr: string): boolean {
  let parsed: Cidr;
  try {
    parsed = ipaddr.parseCIDR(cidr);
  } catch {
    return false; // an unparseable allow entry must never widen access
  }
  if (addr.kind() === parsed[0].kind()) return addr.match(parsed);
  // An allowed IPv4 range also covers IPv6 forms that reach the same IPv4 address.
  const v4 = addr.kind() === 'ipv6' ? embeddedV4(addr as IPv6) : undefined;
  return v4 !== undefined && parsed[0].kind() === 'ipv4' && v4.match(parsed);
}

/** Public addresses pass; blocked ones pass only when an allowCidrs entry covers them. */
export function isAddressAllowed(ip: string, policy: OutboundPolicy): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  if (!findRange(addr)) return true;
  return policy.allowCidrs.some((cidr) => inCidr(addr, cidr));
}

/**
 * Parses a comma-separated CIDR list (OUTBOUND_ALLOW_CIDRS). A bare address means a single host.
 * Returns normalised CIDRs; throws naming the offending entry so a bad config fails at boot.
 */
export function parseCidrList(csv: string | undefined): string[] {
  if (!csv) return [];
  return csv
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const [ip, bits, ...rest] = entry.split('/');
      // Zone ids are interface-local and meaningless in a policy.
      const addr = rest.length === 0 && !ip.includes('%') ? parseIp(ip) : undefined;
      const max = addr?.kind() === 'ipv4' ? 32 : 128;
      const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
      if (!addr || !(prefix >= 0 && prefix <= max)) {
        throw new Error(
          `Invalid CIDR "${entry}" in outbound allow list: expected a.b.c.d/n (n ≤ 32) or an IPv6 prefix/n (n ≤ 128)`,
        );
      }
      return `${addr.toString()}/${prefix}`;
    });
}

/** HTTPS only in production; blocked ranges reachable only where OUTBOUND_ALLOW_CIDRS says. */
export function outboundPolicyFor(config: Pick<Config, 'appEnv' | 'outboundAllowCidrs'>): OutboundPolicy {
  return {
    allowCidrs: parseCidrList(config.outboundAllowCidrs),
    requireHttps: config.appEnv === 'production',
  };
}
