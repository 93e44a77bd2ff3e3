import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * Random hex for identifiers minted on every request (request ids), served from a 4 KiB buffer
 * the CSPRNG fills in one call: one call per id cost about 7 µs of a request's CPU and a system
 * call (OpenSSL's fork check). Not for secrets: the bytes stay in memory until overwritten.
 */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString('hex');
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
