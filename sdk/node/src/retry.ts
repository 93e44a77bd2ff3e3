/** Backoff between attempts: exponential with jitter, or what the service asked for in `Retry-After`. */

const INITIAL_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A `Retry-After` longer than this is shortened to it: a client should not hang for minutes. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before retry number `attempt + 1`. */
export function retryDelayMs(attempt: number, retryAfter: string | null): number {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== null) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** attempt, MAX_BACKOFF_MS);
  // "Equal jitter": at least half the ceiling, so retries of many clients spread without bunching at 0.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Waits, unless the signal aborts first (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
