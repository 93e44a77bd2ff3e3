import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifying webhook deliveries on the raw body (before any JSON parsing), for the three schemes the
 * services send (docs/webhooks.md, docs/mailbox.md):
 *  - `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 of `<t>.<body>`, one v1
 *    per signing secret during a rotation; the timestamp must be within the tolerance (5 minutes);
 *  - `X-Service-Signature: sha256=<hex>`: the legacy per-scenario webhook, HMAC-SHA256 of the body;
 *  - `X-Mailbox-Signature: <hex>`: the mailbox's webhooks, HMAC-SHA256 of the body.
 * Secrets are the whole `whsec_…` strings. Comparisons are constant-time.
 */

export const DEFAULT_TOLERANCE_SECONDS = 300;

export type VerificationFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature';

export type VerificationResult =
  | { ok: true; scheme: 'service' | 'legacy' | 'mailbox'; timestamp: number | null }
  | { ok: false; reason: VerificationFailure };

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(readonly reason: VerificationFailure) {
    super(`webhook signature verification failed: ${reason}`);
  }
}

export type RawBody = string | Uint8Array;
/** A `Headers`, Node's `IncomingHttpHeaders`, or a plain record (names in any case). */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Every secret currently accepted (e.g. the new and the previous one during a rotation). */
  secrets: string | readonly string[];
  /** Seconds a `Service-Signature` timestamp may be away from now. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock (default now). */
  now?: Date;
}

const bytesOf = (body: RawBody) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));
const secretList = (secrets: string | readonly string[]) =>
  typeof secrets === 'string' ? [secrets] : secrets;
const hmac = (secret: string, ...parts: Buffer[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Whether the hex `given` is the digest `expected`, in constant time. */
function sameDigest(given: string, expected: Buffer): boolean {
  if (!/^[0-9a-f]+$/i.test(given)) return false;
  const bytes = Buffer.from(given, 'hex');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

/** Checks a `Service-Signature` header against every secret. */
export function verifyServiceSignature(
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions,
): VerificationResult {
  if (!header) return { ok: false, reason: 'missing_header' };
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    // Other schemes (a future v2) are ignored, so receivers keep working through an upgrade.
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return { ok: false, reason: 'malformed_header' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  const signed = [Buffer.from(`${timestamp}.`, 'utf8'), bytesOf(rawBody)];
  let matched = false;
  // No early exit: every pair is compared, so the time taken does not tell which secret matched.
  for (const secret of secretList(options.secrets)) {
    const expected = hmac(secret, ...signed);
    for (const candidate of signatures) if (sameDigest(candidate, expected)) matched = true;
  }
  return matched
    ? { ok: true, scheme: 'service', timestamp }
    : { ok: false, reason: 'no_matching_signature' };
}

/** Checks a body-only signature: `X-Service-Signature` (`sha256=<hex>`) or `X-Mailbox-Signature` (`<hex>`). */
function verifyBodySignature(
  header: string | null | undefined,
  rawBody: RawBody,
  secrets: string | readonly string[],
  scheme: 'legacy' | 'mailbox',
): VerificationResult {
  if (!header) return { ok: false, reason: 'missing_header' };
  const hex = scheme === 'legacy' ? (header.startsWith('sha256=') ? header.slice(7) : null) : header.trim();
  if (!hex) return { ok: false, reason: 'malformed_header' };
  let matched = false;
  for (const secret of secretList(secrets))
    if (sameDigest(hex, hmac(secret, bytesOf(rawBody)))) matched = true;
  return matched ? { ok: true, scheme, timestamp: null } : { ok: false, reason: 'no_matching_signature' };
}

/** Checks the legacy `X-Service-Signature: sha256=<hex>` of a per-scenario webhook. */
export function verifyLegacySignature(
  header: string | null | undefined,
  rawBody: RawBody,
  options: Pick<VerifyOptions, 'secrets'>,
): VerificationResult {
  return verifyBodySignature(header, rawBody, options.secrets, 'legacy');
}

/** Checks the mailbox's `X-Mailbox-Signature: <hex>`. */
export function verifyMailboxSignature(
  header: string | null | undefined,
  rawBody: RawBody,
  options: Pick<VerifyOptions, 'secrets'>,
): VerificationResult {
  return verifyBodySignature(header, rawBody, options.secrets, 'mailbox');
}

function headerOf(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * Checks whichever signature the delivery carries (`Service-Signature` first, then
 * `X-Service-Signature`, then `X-Mailbox-Signature`) and returns the parsed event.
 * Throws WebhookVerificationError (with its `reason`) when the delivery is not authentic.
 */
export function verifyWebhook<Event = unknown>(
  rawBody: RawBody,
  headers: HeaderSource,
  options: VerifyOptions,
): Event {
  const service = headerOf(headers, 'service-signature');
  const legacy = headerOf(headers, 'x-service-signature');
  const mailbox = headerOf(headers, 'x-mailbox-signature');
  const result = service
    ? verifyServiceSignature(service, rawBody, options)
    : legacy
      ? verifyLegacySignature(legacy, rawBody, options)
      : verifyMailboxSignature(mailbox, rawBody, options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as Event;
}
