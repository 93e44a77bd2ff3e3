// The HTTP side shared by the OpenAI-compatible recogniser and synthesiser: one POST with the
// operator's key, a whole-request timeout (headers and body), and failures turned into
// SpeechEngineError. The endpoint is trusted configuration (like LLM_BASE_URL): no SSRF vetting.
import { abortedError, SpeechEngineError } from './errors.ts';

export interface OpenAiSpeechConfig {
  /** e.g. https://api.openai.com/v1 (the path of the audio endpoint is appended). */
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Whole-request budget. */
  timeoutMs?: number;
}

export interface SpeechServerReply {
  body: Buffer;
  contentType: string;
}

const MAX_ERROR_BODY = 500;

/** "OpenAI-compatible (whisper-1 at api.openai.com)" — never the key or a path with secrets. */
export function openAiLabel(config: OpenAiSpeechConfig): string {
  let host = config.baseUrl;
  try {
    host = new URL(config.baseUrl).host;
  } catch {}
  return `OpenAI-compatible (${config.model} at ${host})`;
}

export async function postToSpeechServer(
  config: OpenAiSpeechConfig,
  path: string,
  init: { body: string | FormData; headers?: Record<string, string> },
  options: { signal?: AbortSignal; defaultTimeoutMs: number; fetchImpl: typeof fetch },
): Promise<SpeechServerReply> {
  const url = `${config.baseUrl.replace(/\/+$/, '')}${path}`;
  const timeoutMs = config.timeoutMs ?? options.defaultTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { ...init.headers };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const fail = (error: unknown, what: string): SpeechEngineError => {
    if (timeout.aborted) {
      return new SpeechEngineError('timeout', `speech server ${path} timed out after ${timeoutMs} ms`);
    }
    if (options.signal?.aborted) return abortedError(options.signal);
    if (error instanceof SpeechEngineError) return error;
    const detail =
      error instanceof Error ? (error.cause as Error | undefined)?.message || error.message : String(error);
    return new SpeechEngineError('network_error', `speech server ${path} ${what}: ${detail}`, null, {
      cause: error,
    });
  };
  let response: Response;
  try {
    response = await options.fetchImpl(url, {
      method: 'POST',
      headers,
      body: init.body,
      signal,
      redirect: 'error',
    });
  } catch (error) {
    throw fail(error, 'request failed');
  }
  let body: Buffer;
  try {
    body = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw fail(error, 'answer broke off');
  }
  if (!response.ok) {
    const text = body.toString('utf8', 0, Math.min(body.length, MAX_ERROR_BODY));
    throw new SpeechEngineError(
      'http_error',
      `speech server ${path} answered ${response.status}: ${text}`,
      response.status,
    );
  }
  return { body, contentType: response.headers.get('content-type') ?? '' };
}
