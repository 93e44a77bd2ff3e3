// Provider 1: the customer's own OpenAI-compatible streaming endpoint (spec "Outbound call to a
// custom agent"). Through the SSRF-safe client only; the request carries the customer's own
// credentials (their api_key, their extra_headers) and never one of ours.
import { ToolCallAccumulator } from '../../../../core/llm/client.ts';
import { sseData } from '../../../../core/llm/sse.ts';
import type { OutboundRequest, OutboundStreamResponse } from '../../../../core/outbound/index.ts';
import type { CustomAgentRuntimeConfig } from '../../../scenarios/custom-agent.ts';
import type { ReplyEvent, ReplyProvider, ReplyRequest } from '../types.ts';

export interface AgentStreamClient {
  stream(req: OutboundRequest): Promise<OutboundStreamResponse>;
}

export interface CustomAgentLogger {
  warn(details: object, message: string): void;
}

/** Longest silence once the reply has started. */
const IDLE_TIMEOUT_MS = 30_000;
const ERROR_BODY_MAX = 500;

export class CustomAgentError extends Error {
  override name = 'CustomAgentError';
  constructor(
    readonly code: 'timeout' | 'http_error' | 'invalid_reply' | 'network_error',
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  get retryable(): boolean {
    if (this.code === 'http_error')
      return this.status === null || this.status >= 500 || this.status === 408 || this.status === 429;
    return this.code !== 'invalid_reply';
  }
}

interface Chunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
}

const OWN_HEADERS = new Set([
  'content-type',
  'accept',
  'authorization',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
]);

/** The customer's extra headers (never over ours, never X-Internal-*), then the request's own. */
export function customAgentHeaders(config: CustomAgentRuntimeConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.extra_headers)) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower) || lower.startsWith('x-internal-')) continue;
    headers[name] = value;
  }
  headers['content-type'] = 'application/json';
  headers.accept = 'text/event-stream';
  if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
  return headers;
}

export function createCustomAgentProvider(options: {
  client: AgentStreamClient;
  config: CustomAgentRuntimeConfig;
  logger?: CustomAgentLogger;
}): ReplyProvider {
  const { client, config, logger } = options;
  const url = `${config.base_url.replace(/\/+$/, '')}/chat/completions`;
  const budgetMs = config.timeout_s * 1000;
  const headers = customAgentHeaders(config);

  async function* attempt(request: ReplyRequest, state: { output: boolean }): AsyncGenerator<ReplyEvent> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    let timedOut: string | null = null;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = what;
        controller.abort(new CustomAgentError('timeout', what));
      }, ms);
    };
    let response: OutboundStreamResponse | null = null;
    try {
      arm(budgetMs, `no reply within timeout_s (${config.timeout_s} s)`);
      const body = JSON.stringify({
        model: config.model,
        messages: request.messages,
        stream: true,
        ...(request.tools.length > 0 ? { tools: request.tools } : {}),
      });
      try {
        response = await client.stream({
          url,
          method: 'POST',
          headers,
          body,
          timeoutMs: budgetMs + 1_000,
          signal: controller.signal,
        });
      } catch (error) {
        if (timedOut) throw new CustomAgentError('timeout', timedOut, null, { cause: error });
        if (request.signal.aborted) return;
        throw new CustomAgentError('network_error', (error as Error).message, null, { cause: error });
      }
      if (response.status < 200 || response.status >= 300) {
        let text = '';
        for await (const chunk of response.body) {
          text += chunk.toString('utf8');
          if (text.length > ERROR_BODY_MAX) break;
        }
        response.abort();
        throw new CustomAgentError(
          'http_error',
          `the agent answered HTTP ${response.status}: ${text.slice(0, ERROR_BODY_MAX)}`,
          response.status,
        );
      }
      const calls = new ToolCallAccumulator();
      try {
        for await (const data of sseData(response.body)) {
          if (data === '[DONE]') break;
          let chunk: Chunk;
          try {
            chunk = JSON.parse(data) as Chunk;
          } catch (error) {
            throw new CustomAgentError(
              'invalid_reply',
              'the agent sent an SSE event that is not JSON',
              null,
              { cause: error },
            );
          }
          const delta = chunk.choices?.[0]?.delta;
          if (delta?.content) {
            state.output = true;
            arm(IDLE_TIMEOUT_MS, 'the agent went silent mid-reply');
            yield { type: 'delta', text: delta.content };
          }
          for (const call of delta?.tool_calls ?? []) {
            if (!state.output) arm(IDLE_TIMEOUT_MS, 'the agent went silent mid-reply');
            calls.add({
              type: 'tool_call',
              index: call.index ?? 0,
              ...(call.id ? { id: call.id } : {}),
              ...(call.function?.name ? { name: call.function.name } : {}),
              arguments: call.function?.arguments ?? '',
            });
          }
        }
      } catch (error) {
        if (error instanceof CustomAgentError) throw error;
        if (timedOut) throw new CustomAgentError('timeout', timedOut, null, { cause: error });
        if (request.signal.aborted) return;
        throw new CustomAgentError('network_error', (error as Error).message, null, { cause: error });
      }
      if (timedOut) throw new CustomAgentError('timeout', timedOut);
      if (request.signal.aborted) return;
      for (const call of calls.result()) {
        if (!call.function.name) continue;
        state.output = true;
        yield { type: 'tool_call', call };
      }
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      response?.abort();
    }
  }

  return {
    kind: 'custom_agent',
    async *reply(request) {
      // Rule 4: retry once when the first response is late (or the endpoint failed before
      // saying anything); never after text has gone out, which cannot be taken back.
      for (let attemptNumber = 1; ; attemptNumber += 1) {
        const state = { output: false };
        try {
          yield* attempt(request, state);
          return;
        } catch (error) {
          const retry =
            attemptNumber === 1 &&
            !state.output &&
            !request.signal.aborted &&
            error instanceof CustomAgentError &&
            error.retryable;
          if (!retry) throw error;
          logger?.warn({ err: error, url }, 'custom agent failed before replying; retrying once');
        }
      }
    },
  };
}
