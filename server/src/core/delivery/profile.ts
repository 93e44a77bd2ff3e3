import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { OutboundErrorCode } from '../outbound/errors.ts';
import type { DeliveryStatus } from './tables.ts';

/** Where and how one delivery is sent, resolved afresh before every attempt. */
export interface DeliveryTarget {
  url: string;
  /** Signing secrets, current first; more than one during a rotation overlap. */
  secrets: string[];
  /** false holds the delivery (status `paused`) until the receiver is enabled again. */
  enabled: boolean;
}

/** The fields of a delivery a profile may read to resolve its target and build headers. */
export interface DeliveryRecord {
  id: string;
  channel: string;
  tenant_id: string;
  endpoint_id: string | null;
  target_url: string | null;
  target_secret_sealed: string | null;
  event_id: string;
  event_type: string;
  payload: string;
  attempt_count: number;
  manual_attempt: boolean;
}

/** What one attempt produced: an HTTP answer or an outbound error before any answer. */
export type AttemptResult =
  | { kind: 'response'; statusCode: number }
  | { kind: 'error'; code: OutboundErrorCode };

/** success ends the delivery, permanent ends it as failed, retry follows the schedule. */
export type AttemptVerdict = 'success' | 'retry' | 'permanent';

export interface HeaderContext {
  delivery: DeliveryRecord;
  target: DeliveryTarget;
  /** The body exactly as it is sent (and signed). */
  body: string;
  attemptNumber: number;
  now: Date;
}

/**
 * Everything that differs between consumers of the engine. The engine knows nothing about
 * meetings or mail: a profile says how long to wait, what counts as success, how to sign and
 * where the receiver is.
 */
export interface ChannelProfile {
  /** Stored in deliveries.channel. */
  name: string;
  /** Delay before each retry; attempts in total = retryDelaysMs.length + 1. */
  retryDelaysMs: readonly number[];
  attemptTimeoutMs: number;
  /** Where a delivery ends once every retry has failed (`dead` for platform, `failed` for mailbox). */
  exhaustedStatus: Extract<DeliveryStatus, 'dead' | 'failed'>;
  classify(result: AttemptResult): AttemptVerdict;
  buildHeaders(context: HeaderContext): Record<string, string>;
  /** null means the receiver is gone (deleted, sunset): the delivery is cancelled. */
  resolveTarget(context: {
    db: Kysely<DB>;
    delivery: DeliveryRecord;
    now: Date;
  }): Promise<DeliveryTarget | null>;
}

/**
 * Outbound refusals no retry can cure: the receiver's address is in a blocked range (private,
 * loopback, link-local, metadata) or its URL breaks the policy. Only a changed URL (or a changed
 * OUTBOUND_ALLOW_CIDRS) helps, so retrying for hours would only hide the mistake.
 */
const PERMANENT_ERRORS: ReadonlySet<OutboundErrorCode> = new Set([
  'blocked_address',
  'invalid_url',
  'https_required',
]);

const classifyError = (code: OutboundErrorCode): AttemptVerdict =>
  PERMANENT_ERRORS.has(code) ? 'permanent' : 'retry';

/**
 * The platform rule: 2xx success; 4xx other than 408/429 and refused addresses permanent; 5xx,
 * 408, 429 and network errors retry.
 */
export function classifyPlatformStyle(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'error') return classifyError(result.code);
  const status = result.statusCode;
  if (status >= 200 && status < 300) return 'success';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'permanent';
  // 5xx, 408, 429, and also 1xx/3xx: redirects are never followed, and a misconfigured receiver
  // may be fixed before the next attempt.
  return 'retry';
}

/** Any 2xx is success and everything else but a refused address is retried (the mailbox rule). */
export function classifyRetryAllFailures(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'error') return classifyError(result.code);
  return result.statusCode >= 200 && result.statusCode < 300 ? 'success' : 'retry';
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
