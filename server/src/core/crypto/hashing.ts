import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
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
