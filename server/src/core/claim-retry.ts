/** After a failed claim (the database away), look again after 1 s, doubling up to this. */
const CLAIM_RETRY_MAX_MS = 5_000;

/**
 * How long the job runner and the delivery worker wait after `failedClaims` claims in a row
 * failed: not their idle poll, since NOTIFYs sent while the database was away are lost.
 */
export function claimRetryMs(failedClaims: number): number {
  return Math.min(CLAIM_RETRY_MAX_MS, 1_000 * 2 ** (failedClaims - 1));
}
