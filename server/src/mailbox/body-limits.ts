import type { AnyFastify } from '../core/http/any-fastify.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body composes a message (text, html, base64 attachments): it may be message-sized. */
    messageBody?: boolean;
  }
}

/** What every other /v0 route parses at most: their bodies are a few fields. */
export const MAILBOX_JSON_BODY_LIMIT = 1024 * 1024;

/**
 * The largest JSON body that can still compose a message within `maxMessageBytes`: the MIME form
 * of a message is never smaller than its JSON (attachments are base64 in both, with line breaks
 * added in MIME), so anything larger is refused by the body parser while it streams, before it
 * is buffered whole or parsed. The margin covers the JSON's own keys and punctuation.
 */
export function messageBodyLimit(maxMessageBytes: number): number {
  return maxMessageBytes + 64 * 1024;
}

/** Gives the /v0 routes marked `config: { messageBody: true }` the message-sized body limit. */
export function applyMessageBodyLimit(v0: AnyFastify, maxMessageBytes: number): void {
  v0.addHook('onRoute', (route) => {
    if (route.config?.messageBody) route.bodyLimit = messageBodyLimit(maxMessageBytes);
  });
}
