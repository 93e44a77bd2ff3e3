// Provider 2: the operator's OpenAI-compatible LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Token
// usage is reported so the meeting's model tokens can be metered.
import {
  type LlmClient,
  type ChatMessage as LlmMessage,
  ToolCallAccumulator,
} from '../../../core/llm/index.ts';
import type { ChatMessage, ReplyEvent, ReplyProvider } from './types.ts';

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

export function createPlatformLlmProvider(client: LlmClient): ReplyProvider {
  return {
    kind: 'llm',
    async *reply(request): AsyncGenerator<ReplyEvent> {
      const calls = new ToolCallAccumulator();
      try {
        for await (const event of client.stream({
          messages: request.messages.map(toLlmMessage),
          tools: request.tools,
          signal: request.signal,
        })) {
          if (event.type === 'text') yield { type: 'delta', text: event.text };
          else if (event.type === 'tool_call') calls.add(event);
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
      for (const call of calls.result()) if (call.function.name) yield { type: 'tool_call', call };
    },
  };
}
