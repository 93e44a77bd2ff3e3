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

/** `service`: `Service-Signature`; `legacy`: `X-Service-Signature`; `mailbox`: `X-Mailbox-Signature`. */
export type SignatureScheme = 'service' | 'legacy' | 'mailbox';

export type VerificationResult =
  | { ok: true; scheme: SignatureScheme; timestamp: number | null }
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
  /**
   * The schemes `verifyWebhook` accepts (default `['service']`). The body-only schemes carry no
   * timestamp, so a captured delivery verifies forever: name `legacy` or `mailbox` only on an
   * endpoint that receives them, never beside `service` on one that does not.
   */
  schemes?: readonly SignatureScheme[];
}

const HEADER_OF_SCHEME: Record<SignatureScheme, string> = {
  service: 'service-signature',
  legacy: 'x-service-signature',
  mailbox: 'x-mailbox-signature',
};

const bytesOf = (body: RawBody) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));
/** The secrets as a list; an empty or missing one (an unset environment variable) is refused. */
function secretList(secrets: string | readonly string[] | undefined): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : (secrets ?? []);
  // An empty key is one anybody can sign with: refuse it loudly rather than verify against it.
  if (list.length === 0 || list.some((secret) => typeof secret !== 'string' || secret === '')) {
    throw new TypeError('webhook secrets must be non-empty strings (is the environment variable set?)');
  }
  return list;
}
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
  const secrets = secretList(options.secrets);
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
  for (const secret of secrets) {
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
  const list = secretList(secrets);
  if (!header) return { ok: false, reason: 'missing_header' };
  const hex = scheme === 'legacy' ? (header.startsWith('sha256=') ? header.slice(7) : null) : header.trim();
  if (!hex) return { ok: false, reason: 'malformed_header' };
  let matched = false;
  for (const secret of list) if (sameDigest(hex, hmac(secret, bytesOf(rawBody)))) matched = true;
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
 * Checks the delivery's signature under the schemes `options.schemes` names (by default only the
 * timestamped `Service-Signature`) and returns the parsed event. A header of a scheme not named is
 * ignored, so stripping `Service-Signature` from a delivery that also carries a body-only signature
 * does not downgrade the check. Throws WebhookVerificationError (with its `reason`) when the
 * delivery is not authentic, and TypeError when no secret is given or a scheme is not one of
 * `service`, `legacy`, `mailbox` (a misspelt name would otherwise quietly refuse every delivery).
 */
export function verifyWebhook<Event = unknown>(
  rawBody: RawBody,
  headers: HeaderSource,
  options: VerifyOptions,
): Event {
  secretList(options.secrets);
  const schemes = options.schemes ?? ['service'];
  if (typeof schemes === 'string' || !Array.isArray(schemes)) {
    throw new TypeError(`schemes must be an array of ${Object.keys(HEADER_OF_SCHEME).join(', ')}`);
  }
  const unknown = schemes.filter((name) => !Object.hasOwn(HEADER_OF_SCHEME, name));
  if (unknown.length) {
    throw new TypeError(
      `unknown signature scheme ${unknown.map((name) => JSON.stringify(name)).join(', ')}: use ${Object.keys(HEADER_OF_SCHEME).join(', ')}`,
    );
  }
  const scheme = (['service', 'legacy', 'mailbox'] as const).find(
    (candidate) => schemes.includes(candidate) && headerOf(headers, HEADER_OF_SCHEME[candidate]),
  );
  const header = scheme ? headerOf(headers, HEADER_OF_SCHEME[scheme]) : null;
  const result =
    scheme === 'service'
      ? verifyServiceSignature(header, rawBody, options)
      : scheme === 'legacy'
        ? verifyLegacySignature(header, rawBody, options)
        : scheme === 'mailbox'
          ? verifyMailboxSignature(header, rawBody, options)
          : ({ ok: false, reason: 'missing_header' } as const);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as Event;
}
