import type { ToolCall } from '../../../core/llm/client.ts';

// A tool call is the same object in the OpenAI-style protocol on both sides: one definition.
export type { ToolCall };
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
export type ReplyEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; promptTokens: number; completionTokens: number };
export interface ReplyRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
}
export interface ReplyProvider {
  readonly kind: 'custom_agent' | 'llm' | 'offline';
  reply(request: ReplyRequest): AsyncIterable<ReplyEvent>;
}
