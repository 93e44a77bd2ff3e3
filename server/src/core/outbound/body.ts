import { OutboundError } from './errors.ts';

/** Reads at most `limit` bytes; anything beyond is dropped by destroying the stream. */
export async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = limit - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      // Leaving the loop destroys the body, so an endless response costs us at most `limit`.
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), truncated };
}

export interface AbortWatch {
  /** Aborted by the timeout (reason: OutboundError 'timeout') or by the caller's signal. */
  signal: AbortSignal;
  clearTimer(): void;
  dispose(): void;
}

/** One signal for undici that fires on our deadline or on the caller's own signal. */
export function watchAbort(caller: AbortSignal | undefined, timeoutMs: number, what: string): AbortWatch {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new OutboundError('timeout', `${what} timed out after ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    clearTimer: () => clearTimeout(timer),
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Maps whatever undici or the socket threw to an OutboundError. A caller's abort is the one
 * exception: its own reason is rethrown, as fetch does, so the caller recognises it.
 */
export function toOutboundError(err: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new OutboundError('timeout', (err as Error).message, { cause: err });
  }
  const detail = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
  return new OutboundError('network_error', `request failed: ${detail}`, { cause: err });
}
