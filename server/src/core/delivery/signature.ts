import { hmacSha256Hex, safeEqual } from '../crypto/hashing.ts';

/**
 * The `Service-Signature` scheme: `t=<unix seconds>,v1=<hex>[,v1=<hex>]` where each v1 is
 * HMAC-SHA256(secret, `${t}.${rawBody}`). Signing the timestamp with the body lets a receiver
 * reject replays; one v1 per secret lets receivers rotate without a window of failures.
 */
export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signatureHeader(options: { secrets: readonly string[]; rawBody: string; now: Date }): string {
  const timestamp = Math.floor(options.now.getTime() / 1000);
  const signatures = options.secrets.map(
    (secret) => `v1=${hmacSha256Hex(secret, `${timestamp}.${options.rawBody}`)}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}

/** The legacy `X-Service-Signature` value: `sha256=` and the hex HMAC of the body alone. */
export function legacyBodySignature(secret: string, rawBody: string): string {
  return `sha256=${hmacSha256Hex(secret, rawBody)}`;
}

export type VerificationFailure =
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'no_matching_signature';
export type VerificationResult = { ok: true; timestamp: number } | { ok: false; reason: VerificationFailure };

export interface VerifyOptions {
  header: string | null | undefined;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** Every secret currently accepted by the receiver (e.g. new and previous during a rotation). */
  secrets: readonly string[];
  toleranceSeconds?: number;
  now: Date;
}

/**
 * Checks a `Service-Signature` header. A timestamp further than the tolerance from `now` in
 * either direction is refused (old: a replay; future: a skewed or forged clock). Any v1 that
 * matches any secret is accepted; comparisons are constant-time.
 */
export function verifySignature(options: VerifyOptions): VerificationResult {
  const parsed = parseSignatureHeader(options.header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  const signedContent = `${parsed.timestamp}.${Buffer.isBuffer(options.rawBody) ? options.rawBody.toString('utf8') : options.rawBody}`;
  let matched = false;
  // No early exit: every pair is compared so timing does not reveal which secret matched.
  for (const secret of options.secrets) {
    const expected = hmacSha256Hex(secret, signedContent);
    for (const candidate of parsed.signatures) if (safeEqual(expected, candidate)) matched = true;
  }
  return matched ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'no_matching_signature' };
}

export function parseSignatureHeader(
  header: string | null | undefined,
): { timestamp: number; signatures: string[] } | null {
  if (!header) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    // Unknown schemes (a future v2) are ignored so receivers keep working through an upgrade.
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}
