// One error type for every speech engine, so the live loop can log and degrade (a failed sentence
// is shown as text only, a failed recognition ends the utterance) without knowing the engine.

export type SpeechErrorCode =
  /** The server answered with a non-2xx status. */
  | 'http_error'
  | 'timeout'
  | 'network_error'
  /** The answer was not what the API promises (not JSON, not a WAV, no text). */
  | 'invalid_reply'
  | 'aborted'
  /** The embedded engine (worker, sidecar) failed or died. */
  | 'engine_failed'
  /** The engine was closed. */
  | 'closed';

export class SpeechEngineError extends Error {
  constructor(
    readonly code: SpeechErrorCode,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpeechEngineError';
  }
}

export function abortedError(signal: AbortSignal): SpeechEngineError {
  const reason = signal.reason;
  if (reason instanceof SpeechEngineError) return reason;
  return new SpeechEngineError('aborted', 'speech request aborted', null, { cause: reason });
}
