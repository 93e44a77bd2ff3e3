import { isIP } from 'node:net';
import { AppError } from '../../core/http/errors.ts';
import { isAddressAllowed, type OutboundPolicy } from '../../core/outbound/address-policy.ts';

/**
 * Checks a webhook URL when it is registered, so obvious mistakes fail with a 400 instead of a
 * stream of failed deliveries. This is not the security boundary: the outbound client resolves
 * and checks the address again on every connection (a name can be re-pointed later).
 */
export function assertAcceptableWebhookUrl(raw: string, policy: OutboundPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('url must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidUrl('url must use https.');
  if (url.protocol === 'http:' && policy.requireHttps) throw invalidUrl('url must use https in production.');
  if (url.username || url.password) throw invalidUrl('url must not contain credentials.');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : host;
  if (isIP(literal) !== 0 && !isAddressAllowed(literal, policy)) {
    throw invalidUrl('url points at a private, loopback or otherwise non-public address.');
  }
  return raw;
}

const invalidUrl = (message: string) => new AppError('parameter_invalid', message, { param: 'url' });
