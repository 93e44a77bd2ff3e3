import { performance } from 'node:perf_hooks';
import type { OutboundRequest, OutboundResponse } from '../outbound/client.ts';
import { OutboundError } from '../outbound/errors.ts';
import type { AttemptResult, ChannelProfile, DeliveryRecord } from './profile.ts';
import type { DeliveryStatus } from './tables.ts';

/** The part of the outbound client the engine needs (the real one in production and tests). */
export interface DeliveryHttpClient {
  request(request: OutboundRequest): Promise<OutboundResponse>;
}

export const RESPONSE_EXCERPT_BYTES = 1024;

export interface AttemptOutcome {
  result: AttemptResult;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

/** POSTs the delivery once. Never throws for anything the receiver or the network does. */
export async function sendAttempt(
  client: DeliveryHttpClient,
  request: {
    url: string;
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    /** Cuts the attempt short (its claim was lost); it then ends as an error like any other. */
    signal?: AbortSignal;
  },
): Promise<AttemptOutcome> {
  const started = performance.now();
  try {
    const response = await client.request({
      url: request.url,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs: request.timeoutMs,
      maxResponseBytes: RESPONSE_EXCERPT_BYTES,
      signal: request.signal,
    });
    return {
      result: { kind: 'response', statusCode: response.status },
      statusCode: response.status,
      durationMs: Math.round(response.durationMs),
      error: null,
      responseExcerpt: excerpt(response.body),
    };
  } catch (error) {
    const outbound =
      error instanceof OutboundError
        ? error
        : new OutboundError('network_error', (error as Error)?.message ?? String(error), { cause: error });
    return {
      result: { kind: 'error', code: outbound.code },
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      error: `${outbound.code}: ${outbound.message}`.slice(0, 500),
      responseExcerpt: null,
    };
  }
}

/** The stored excerpt: at most 1 KiB, as text, without the NULs PostgreSQL text cannot hold. */
function excerpt(body: Buffer): string | null {
  if (body.length === 0) return null;
  return body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
}

export interface NextState {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** What the attempt log says this attempt led to. */
  outcome: 'succeeded' | 'failed' | 'dead' | 'retry_scheduled';
}

/** Applies the profile's verdict and schedule to one attempt's result. */
export function nextStateAfter(
  profile: ChannelProfile,
  delivery: DeliveryRecord,
  attemptNumber: number,
  result: AttemptResult,
  now: Date,
): NextState {
  const verdict = profile.classify(result);
  if (verdict === 'success') return { status: 'succeeded', nextAttemptAt: null, outcome: 'succeeded' };
  if (verdict === 'permanent') return { status: 'failed', nextAttemptAt: null, outcome: 'failed' };
  // A manual redelivery is one extra try, not a new round of retries.
  const delay = delivery.manual_attempt ? undefined : profile.retryDelaysMs[attemptNumber - 1];
  if (delay === undefined) {
    const exhausted = profile.exhaustedStatus;
    return { status: exhausted, nextAttemptAt: null, outcome: exhausted };
  }
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), outcome: 'retry_scheduled' };
}
