import { QUOTE_MIN_MATCH, type QuotedMessage } from './quote.ts';

export type MatchedBy = 'in_reply_to' | 'references' | 'quote' | 'subject' | 'new';

/** Subject and quote threading consider threads (and quoted messages) at most this old. */
export const SUBJECT_WINDOW_DAYS = 30;
const SUBJECT_WINDOW_MS = SUBJECT_WINDOW_DAYS * 24 * 60 * 60 * 1000;

export interface ThreadingInput {
  inboxAddress: string;
  inReplyTo: string | null;
  references: string[];
  normalizedSubject: string;
  /** Lower-cased addresses from From, To, Cc and Reply-To. */
  participants: string[];
  timestamp: Date;
  /** The message the text quotes (see findQuotedMessage), if any. */
  quoted?: QuotedMessage | null;
}

/** What is stored already that threading can join, read before resolving (see storeMessage). */
export interface StoredForThreading {
  /** Thread id by Message-ID of this inbox's stored messages ('' for a message in no thread). */
  threadByMessageId: Map<string, string>;
  /** The thread subjectSearch() found, if any. */
  subjectThreadId: string | null;
  /** The thread of the message quoteSearch() found, if any. */
  quoteThreadId?: string | null;
}

/**
 * What the subject layer looks for: the most recent thread with this normalised subject, active
 * since `since`, with one of `others` (the participants but the inbox) in it. Null when it cannot
 * match: no subject, or nobody but the inbox.
 */
export function subjectSearch(
  input: ThreadingInput,
): { normalizedSubject: string; since: Date; others: string[] } | null {
  const inbox = input.inboxAddress.toLowerCase();
  const others = [...new Set(input.participants.map((p) => p.toLowerCase()))].filter((p) => p !== inbox);
  if (!input.normalizedSubject || others.length === 0) return null;
  const since = new Date(input.timestamp.getTime() - SUBJECT_WINDOW_MS);
  return { normalizedSubject: input.normalizedSubject, since, others };
}

/** What the quote layer looks for (see messagesRepository.storeContext). */
export interface QuoteSearch {
  address: string | null;
  name: string | null;
  quotedText: string;
  minMatch: number;
  since: Date;
  others: string[];
}

/**
 * What the quote layer looks for: the most recent message of the inbox, sent within the window
 * by the quoted sender, whose opening (its new part, whitespace collapsed) appears in the quoted
 * text, in a thread with one of `others` in it. Null when the text quotes nothing or nobody but
 * the inbox takes part.
 */
export function quoteSearch(input: ThreadingInput): QuoteSearch | null {
  const quoted = input.quoted;
  const inbox = input.inboxAddress.toLowerCase();
  const others = [...new Set(input.participants.map((p) => p.toLowerCase()))].filter((p) => p !== inbox);
  if (!quoted || (!quoted.address && !quoted.name) || quoted.text.length < QUOTE_MIN_MATCH) return null;
  if (others.length === 0) return null;
  const since = new Date(input.timestamp.getTime() - SUBJECT_WINDOW_MS);
  return {
    address: quoted.address,
    name: quoted.name,
    quotedText: quoted.text,
    minMatch: QUOTE_MIN_MATCH,
    since,
    others,
  };
}

export interface ThreadingResult {
  threadId: string | null;
  matchedBy: MatchedBy;
}

/**
 * Finds the thread an incoming or outgoing message belongs to, layer by layer:
 * 1. `in_reply_to`: the In-Reply-To header names a message stored in this inbox;
 * 2. `references`: the nearest (last) References entry stored in this inbox;
 * 3. `quote`: the text quotes a recent message of this inbox by its sender (see quoteSearch),
 *    before `subject` because a quote names one message where a subject names a topic;
 * 4. `subject`: same normalised subject, a participant in common other than the inbox
 *    itself, and the thread active within SUBJECT_WINDOW_DAYS;
 * 5. `new`.
 */
export function resolveThread(input: ThreadingInput, stored: StoredForThreading): ThreadingResult {
  const threadOf = (messageId: string) => stored.threadByMessageId.get(messageId) || undefined;
  const inReplyTo = input.inReplyTo ? threadOf(input.inReplyTo) : undefined;
  if (inReplyTo) return { threadId: inReplyTo, matchedBy: 'in_reply_to' };
  for (const reference of [...input.references].reverse()) {
    const threadId = threadOf(reference);
    if (threadId) return { threadId, matchedBy: 'references' };
  }
  if (stored.quoteThreadId) return { threadId: stored.quoteThreadId, matchedBy: 'quote' };
  if (stored.subjectThreadId) return { threadId: stored.subjectThreadId, matchedBy: 'subject' };
  return { threadId: null, matchedBy: 'new' };
}

/** `<id@host>` as stored: trimmed, one pair of angle brackets. */
export function normalizeMessageId(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const trimmed = raw
    .trim()
    .replace(/^<+|>+$/g, '')
    .trim();
  return trimmed ? `<${trimmed}>` : null;
}

/** The Message-IDs of a References (or In-Reply-To) header value, in order. */
export function parseMessageIdList(raw: string | string[] | null | undefined): string[] {
  if (!raw) return [];
  const text = Array.isArray(raw) ? raw.join(' ') : raw;
  const bracketed = text.match(/<[^<>\s]+>/g);
  const ids = bracketed ?? text.split(/[\s,]+/);
  return ids.map(normalizeMessageId).filter((id): id is string => id !== null);
}
