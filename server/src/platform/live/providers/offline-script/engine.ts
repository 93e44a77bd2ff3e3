// The embedded reply provider: a deterministic, rule-based script runner (not a language model).
import type { ReplyEvent, ReplyProvider, ReplyRequest } from '../types.ts';
import { composeReply, type OfflineScriptContext } from './composer.ts';
import { loadEmbeddings } from './embeddings.ts';
import { parseScript } from './script.ts';
import { hashString } from './text.ts';

/** Words per streamed delta: small enough for text-to-speech to start early. */
const WORDS_PER_DELTA = 4;

/** Splits text into groups of words whose concatenation is exactly the text. */
export function chunkText(text: string, wordsPerChunk = WORDS_PER_DELTA): string[] {
  const tokens = text.match(/\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk)
    chunks.push(tokens.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

export function createOfflineScriptEngine(context: OfflineScriptContext): ReplyProvider {
  const steps = parseScript(context.prompt, context.scenarioType);
  // Word meaning is read in the background while the welcome is spoken; a reply waits for it once.
  void loadEmbeddings();
  return {
    kind: 'offline',
    async *reply(request: ReplyRequest): AsyncGenerator<ReplyEvent> {
      const { signal } = request;
      if (signal.aborted) return;
      await loadEmbeddings();
      if (signal.aborted) return;
      const { text, endReason } = composeReply(context, steps, request.messages);
      for (const chunk of chunkText(text)) {
        if (signal.aborted) return;
        yield { type: 'delta', text: chunk };
      }
      // No usage event: no model tokens are spent.
      if (endReason === null || signal.aborted) return;
      if (!request.tools.some((tool) => tool.function.name === 'end_call')) return;
      const args = JSON.stringify({ reason: endReason });
      yield {
        type: 'tool_call',
        call: {
          id: `call_offline_${hashString(`${text}\u0000${request.messages.length}`).toString(16)}`,
          type: 'function',
          function: { name: 'end_call', arguments: args },
        },
      };
    },
  };
}
