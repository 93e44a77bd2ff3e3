import { findQuotedMessage, type QuotedMessage } from '../threading/quote.ts';
import { extractReplyHtml } from './reply-html.ts';
import { extractReplyText } from './reply-text.ts';

/** What is read out of a message's bodies when it is stored, received or sent. */
export interface ReadBodies {
  extracted_text: string | null;
  extracted_html: string | null;
  /** The message the text quotes, for the `quote` threading layer. */
  quoted: QuotedMessage | null;
}

export function readBodies(text: string | null | undefined, html: string | null | undefined): ReadBodies {
  return {
    extracted_text: extractReplyText(text),
    extracted_html: extractReplyHtml(html),
    quoted: findQuotedMessage(text),
  };
}
