export { Mailbox, Understudy } from './clients.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnderstudyError,
} from './errors.js';
export type * as MailboxTypes from './generated/mailbox-v0.js';
export type { MailboxApi } from './generated/mailbox-v0-operations.js';
export type * as PlatformTypes from './generated/platform-v1.js';
export type { UnderstudyApi } from './generated/platform-v1-operations.js';
export type { ClientOptions } from './http-client.js';
export { PagePromise } from './pagination.js';
export {
  type JoinOptions,
  type ReconnectOptions,
  RoomClient,
  type RoomClientOptions,
  RoomError,
  type RoomFrame,
  type RoomState,
  type UploadBody,
  type UtteranceFields,
  type WebSocketConstructor,
  type WebSocketLike,
} from './room.js';
export type { Params, RequestOptions, Result } from './types.js';
export { VERSION } from './version.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureScheme,
  type VerificationFailure,
  type VerificationResult,
  verifyLegacySignature,
  verifyMailboxSignature,
  verifyServiceSignature,
  verifyWebhook,
  WebhookVerificationError,
} from './webhooks.js';
