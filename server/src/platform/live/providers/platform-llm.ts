// Provider 2: the operator's OpenAI-compatible LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Token
// usage is reported so the meeting's model tokens can be metered. Like the custom agent, a request
// that fails before saying anything is sent once more; after that the session's fallback answers.
import {
  type LlmClient,
  LlmError,
  type ChatMessage as LlmMessage,
  ToolCallAccumulator,
} from '../../../core/llm/index.ts';
import type { ChatMessage, ReplyEvent, ReplyProvider, ReplyRequest } from './types.ts';

export interface PlatformLlmOptions {
  /** Until the response headers arrive. A live turn cannot wait the client's default 15 s twice. */
  firstByteTimeoutMs?: number;
  /** Longest silence between two chunks (the first token included). */
  idleTimeoutMs?: number;
  logger?: { warn(details: object, message: string): void };
}

const FIRST_BYTE_TIMEOUT_MS = 8_000;
const IDLE_TIMEOUT_MS = 12_000;

function toLlmMessage(message: ChatMessage): LlmMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content ?? '' };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls && message.tool_calls.length > 0 ? { tool_calls: message.tool_calls } : {}),
      };
    case 'tool':
      return { role: 'tool', content: message.content ?? '', tool_call_id: message.tool_call_id ?? '' };
  }
}

/** Worth a second request: the endpoint may answer next time (a 4xx other than 408/429 will not). */
export function retryableLlmError(error: unknown): boolean {
  if (!(error instanceof LlmError)) return false;
  if (error.code === 'timeout' || error.code === 'network_error') return true;
  if (error.code === 'http_error') {
    const status = error.status ?? 500;
    return status >= 500 || status === 408 || status === 429;
  }
  return false;
}

export function createPlatformLlmProvider(
  client: LlmClient,
  options: PlatformLlmOptions = {},
): ReplyProvider {
  async function* attempt(request: ReplyRequest, state: { output: boolean }): AsyncGenerator<ReplyEvent> {
    const calls = new ToolCallAccumulator();
    try {
      for await (const event of client.stream({
        messages: request.messages.map(toLlmMessage),
        tools: request.tools,
        signal: request.signal,
        firstByteTimeoutMs: options.firstByteTimeoutMs ?? FIRST_BYTE_TIMEOUT_MS,
        idleTimeoutMs: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      })) {
        if (event.type === 'text') {
          state.output = true;
          yield { type: 'delta', text: event.text };
        } else if (event.type === 'tool_call') calls.add(event);
        else if (event.type === 'usage') {
          yield {
            type: 'usage',
            promptTokens: event.usage.prompt_tokens,
            completionTokens: event.usage.completion_tokens,
          };
        }
      }
    } catch (error) {
      if (request.signal.aborted) return;
      throw error;
    }
    if (request.signal.aborted) return;
    for (const call of calls.result()) {
      if (!call.function.name) continue;
      state.output = true;
      yield { type: 'tool_call', call };
    }
  }

  return {
    kind: 'llm',
    async *reply(request): AsyncGenerator<ReplyEvent> {
      // Once more when the first request failed before any text: never after text went out.
      for (let attemptNumber = 1; ; attemptNumber += 1) {
        const state = { output: false };
        try {
          yield* attempt(request, state);
          return;
        } catch (error) {
          const retry = attemptNumber === 1 && !state.output && retryableLlmError(error);
          if (!retry || request.signal.aborted) throw error;
          options.logger?.warn({ err: error }, 'platform LLM failed before replying; retrying once');
        }
      }
    },
  };
}
