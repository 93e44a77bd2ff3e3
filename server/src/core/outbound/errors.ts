export type OutboundErrorCode =
  | 'invalid_url'
  | 'https_required'
  | 'blocked_address'
  | 'dns_failure'
  | 'timeout'
  | 'connect_failed'
  | 'response_too_large'
  | 'network_error';

/**
 * The only error the outbound client throws (besides a caller's own abort reason), so delivery
 * logs and retry policies can switch on `code` instead of parsing undici or libuv errors.
 */
export class OutboundError extends Error {
  override name = 'OutboundError';
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
