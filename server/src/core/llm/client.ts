// A small client for OpenAI-compatible chat completions (the operator-configured platform LLM:
// LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Two calls: completeJson() for structured output that is
// validated against a schema (with one repair round), and stream() for SSE token streaming with
// tool calls. The endpoint is trusted configuration, so no SSRF vetting, but every call has timeouts.
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { sseData } from './sse.ts';

export interface LlmConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type LlmErrorCode = 'http_error' | 'timeout' | 'network_error' | 'invalid_reply' | 'aborted';

export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

export interface CompleteJsonOptions<T extends TSchema> {
  messages: ChatMessage[];
  /** A TypeBox schema (it is JSON Schema): sent as the response format and used to check the reply. */
  schema: T;
  /** Name of the schema in the response format (letters, digits, `_`, `-`). */
  schemaName?: string;
  signal?: AbortSignal;
  /** Whole-call budget per attempt. Default 60 s. */
  timeoutMs?: number;
  /** Extra checks after the schema passed; return problems to trigger a repair round. */
  check?: (value: unknown) => string[];
  temperature?: number;
}

export interface CompleteJsonResult<T> {
  value: T;
  usage: Usage | null;
}

export type StreamEvent =
  | { type: 'text'; text: string }
  /** A piece of tool call `index`: `id` and `name` arrive first, `arguments` in fragments. */
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: string };

export interface StreamOptions {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  signal?: AbortSignal;
  /** Until the response headers arrive. Default 15 s. */
  firstByteTimeoutMs?: number;
  /** Longest silence between two chunks. Default 30 s. */
  idleTimeoutMs?: number;
  temperature?: number;
}

export interface LlmClient {
  readonly model: string;
  completeJson<T extends TSchema>(options: CompleteJsonOptions<T>): Promise<CompleteJsonResult<Static<T>>>;
  stream(options: StreamOptions): AsyncGenerator<StreamEvent>;
}

const MAX_ERROR_BODY = 2000;

export function createLlmClient(config: LlmConfig, fetchImpl: typeof fetch = fetch): LlmClient {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  async function post(
    body: Record<string, unknown>,
    signal: AbortSignal,
    accept?: string,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: accept ? { ...headers, accept } : headers,
        body: JSON.stringify({ model: config.model, ...body }),
        signal,
        redirect: 'error',
      });
    } catch (error) {
      throw (
        classifyAbort(error, signal) ??
        new LlmError('network_error', `LLM request failed: ${describe(error)}`, null, { cause: error })
      );
    }
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, MAX_ERROR_BODY);
      throw new LlmError('http_error', `LLM answered ${response.status}: ${text}`, response.status);
    }
    return response;
  }

  async function completeOnce(
    messages: ChatMessage[],
    options: CompleteJsonOptions<TSchema>,
    jsonSchema: boolean,
  ) {
    const signal = withTimeout(options.signal, options.timeoutMs ?? 60_000);
    const responseFormat = jsonSchema
      ? {
          type: 'json_schema',
          json_schema: { name: options.schemaName ?? 'result', schema: options.schema, strict: false },
        }
      : { type: 'json_object' };
    const response = await post(
      { messages, response_format: responseFormat, temperature: options.temperature ?? 0.4, stream: false },
      signal,
    );
    let payload: { choices?: { message?: { content?: string | null } }[]; usage?: Usage };
    try {
      payload = (await response.json()) as typeof payload;
    } catch (error) {
      throw (
        classifyAbort(error, signal) ??
        new LlmError('invalid_reply', 'LLM reply is not JSON.', null, { cause: error })
      );
    }
    return { content: payload.choices?.[0]?.message?.content ?? '', usage: payload.usage ?? null };
  }

  return {
    model: config.model,

    async completeJson<T extends TSchema>(
      options: CompleteJsonOptions<T>,
    ): Promise<CompleteJsonResult<Static<T>>> {
      const messages = [...options.messages];
      let jsonSchema = true;
      let lastProblems: string[] = [];
      // First attempt, then one repair round that shows the model what was wrong.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        let reply: { content: string; usage: Usage | null };
        try {
          reply = await completeOnce(messages, options, jsonSchema);
        } catch (error) {
          // Servers without json_schema support answer 400/422: fall back to json_object once.
          if (jsonSchema && error instanceof LlmError && (error.status === 400 || error.status === 422)) {
            jsonSchema = false;
            reply = await completeOnce(messages, options, jsonSchema);
          } else throw error;
        }
        const { value, problems } = parseAndCheck(reply.content, options);
        if (problems.length === 0) return { value: value as Static<T>, usage: reply.usage };
        lastProblems = problems;
        messages.push(
          { role: 'assistant', content: reply.content },
          {
            role: 'user',
            content: `That reply is not valid: ${problems.slice(0, 10).join('; ')}. Reply again with only one JSON object that matches the schema.`,
          },
        );
      }
      throw new LlmError(
        'invalid_reply',
        `LLM reply did not match the schema: ${lastProblems.slice(0, 5).join('; ')}`,
      );
    },

    async *stream(options) {
      const controller = new AbortController();
      const outer = options.signal;
      const onAbort = () => controller.abort(outer?.reason);
      outer?.addEventListener('abort', onAbort, { once: true });
      let timer: NodeJS.Timeout | undefined;
      const arm = (ms: number, what: string) => {
        clearTimeout(timer);
        timer = setTimeout(
          () => controller.abort(new LlmError('timeout', `LLM ${what} timed out after ${ms} ms.`)),
          ms,
        );
      };
      try {
        arm(options.firstByteTimeoutMs ?? 15_000, 'response');
        const response = await post(
          {
            messages: options.messages,
            stream: true,
            stream_options: { include_usage: true },
            temperature: options.temperature ?? 0.7,
            ...(options.tools && options.tools.length > 0 ? { tools: options.tools } : {}),
          },
          controller.signal,
          'text/event-stream',
        );
        if (!response.body) throw new LlmError('invalid_reply', 'LLM stream has no body.');
        const idle = options.idleTimeoutMs ?? 30_000;
        arm(idle, 'stream');
        try {
          for await (const data of sseData(response.body as unknown as AsyncIterable<Uint8Array>)) {
            arm(idle, 'stream');
            if (data === '[DONE]') return;
            yield* chunkEvents(data);
          }
        } catch (error) {
          throw classifyAbort(error, controller.signal) ?? error;
        }
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
        if (!controller.signal.aborted) controller.abort();
      }
    },
  };
}

function* chunkEvents(data: string): Generator<StreamEvent> {
  let chunk: {
    choices?: {
      delta?: {
        content?: string | null;
        tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
      };
      finish_reason?: string | null;
    }[];
    usage?: Usage | null;
  };
  try {
    chunk = JSON.parse(data);
  } catch (error) {
    throw new LlmError('invalid_reply', 'LLM stream sent an event that is not JSON.', null, { cause: error });
  }
  const choice = chunk.choices?.[0];
  const delta = choice?.delta;
  if (delta?.content) yield { type: 'text', text: delta.content };
  for (const call of delta?.tool_calls ?? []) {
    yield {
      type: 'tool_call',
      index: call.index ?? 0,
      ...(call.id ? { id: call.id } : {}),
      ...(call.function?.name ? { name: call.function.name } : {}),
      arguments: call.function?.arguments ?? '',
    };
  }
  if (choice?.finish_reason) yield { type: 'finish', reason: choice.finish_reason };
  if (chunk.usage) yield { type: 'usage', usage: chunk.usage };
}

/** Joins streamed tool-call fragments into complete calls, in index order. */
export class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  add(event: Extract<StreamEvent, { type: 'tool_call' }>): void {
    const call = this.calls.get(event.index) ?? { id: '', name: '', arguments: '' };
    if (event.id) call.id = event.id;
    if (event.name) call.name += event.name;
    call.arguments += event.arguments;
    this.calls.set(event.index, call);
  }

  get size(): number {
    return this.calls.size;
  }

  result(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id || `call_${index}`,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
  }
}

function parseAndCheck(
  content: string,
  options: CompleteJsonOptions<TSchema>,
): { value: unknown; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(stripFence(content));
  } catch {
    return { value: undefined, problems: ['the reply is not a JSON object'] };
  }
  const problems = [...Value.Errors(options.schema, value)]
    .filter((error) => error.keyword !== 'boolean')
    .map((error) => `${error.instancePath || '/'} ${error.message}`);
  if (problems.length === 0 && options.check) problems.push(...options.check(value));
  return { value, problems };
}

/** Some models wrap JSON in a Markdown fence even when asked not to. */
function stripFence(content: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return match ? match[1]! : content.trim();
}

function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function classifyAbort(error: unknown, signal: AbortSignal): LlmError | null {
  if (!signal.aborted) return null;
  const reason = signal.reason;
  if (reason instanceof LlmError) return reason;
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new LlmError('timeout', 'LLM request timed out.', null, { cause: error });
  }
  return new LlmError('aborted', 'LLM request was aborted.', null, { cause: reason ?? error });
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
