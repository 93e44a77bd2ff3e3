// "No sentence twice in a call": the persona's earlier sentences are read from the messages, and a
// phrase is picked among the variants not said yet (still deterministic: the order comes from a hash).
import type { ChatMessage } from '../types.ts';
import { splitSentences } from './sentences.ts';
import { hashString, normalize } from './text.ts';

export class Said {
  readonly #sentences = new Set<string>();

  constructor(messages: readonly ChatMessage[]) {
    for (const message of messages) if (message.role === 'assistant') this.add(message.content ?? '');
  }

  add(text: string): void {
    for (const sentence of splitSentences(text)) this.#sentences.add(normalize(sentence));
  }

  has(text: string): boolean {
    const sentences = splitSentences(text);
    return sentences.length > 0 && sentences.some((s) => this.#sentences.has(normalize(s)));
  }

  /** The first variant (in a hash-chosen order) none of whose sentences was said yet; null when all were. */
  fresh(options: readonly string[], seed: number, salt: string): string | null {
    const start = options.length === 0 ? 0 : hashString(`${seed}:${salt}`) % options.length;
    for (let i = 0; i < options.length; i++) {
      const option = options[(start + i) % options.length];
      if (!this.has(option)) {
        this.add(option);
        return option;
      }
    }
    return null;
  }
}
