import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
const POOL_BYTES = 4096 - (4096 % ID_BYTES);
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * A new request id, `req_` and 24 hex digits, for every request both services answer. The bytes
 * come from a 4 KiB buffer the CSPRNG fills in one call: one call per request cost about 7 µs of
 * its CPU and a system call (OpenSSL's fork check). Ids are not secrets, so the buffer may keep
 * spent bytes until it is refilled.
 */
export function mintRequestId(): string {
  if (offset === POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = `req_${pool.toString('hex', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}
