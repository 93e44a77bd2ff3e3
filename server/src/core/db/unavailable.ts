/**
 * Whether an error means the database cannot be reached or did not answer in time, as opposed to
 * refusing a statement. Such failures are answered 503 with Retry-After (error-handler.ts): the
 * request may well succeed once the server is back, and nothing about it was wrong.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // SQLSTATE class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    if (SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  return typeof message === 'string' && POOL_MESSAGES.some((pattern) => pattern.test(message));
}

/** How long a client is told to wait before retrying (the Retry-After of those 503s). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const SQLSTATES = new Set([
  '57014', // query_canceled: the statement timeout
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '53300', // too_many_connections
]);

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** pg and pg-pool report these without a code. */
const POOL_MESSAGES = [
  /^timeout exceeded when trying to connect$/i,
  /^Connection terminated/i,
  /^Client has encountered a connection error/i,
  /^Client was closed and is not queryable$/i,
  /^Cannot use a pool after calling end on the pool$/i,
];
