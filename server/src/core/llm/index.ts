export {
  type ChatMessage,
  type CompleteJsonOptions,
  type CompleteJsonResult,
  createLlmClient,
  type LlmClient,
  type LlmConfig,
  LlmError,
  type LlmErrorCode,
  type StreamEvent,
  type StreamOptions,
  type ToolCall,
  ToolCallAccumulator,
  type ToolDefinition,
  type Usage,
} from './client.ts';
export { sseData } from './sse.ts';
