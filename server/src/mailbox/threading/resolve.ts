export type MatchedBy = 'in_reply_to' | 'references' | 'subject' | 'new';

/** Subject-only threading considers threads whose last message is at most this old. */
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
}

/** The lookups threading needs; the repository answers them within the storing transaction. */
export interface ThreadLookups {
  /** Thread ids of this inbox's messages with these Message-IDs (absent ids are left out). */
  threadsByMessageIds(inboxId: string, messageIds: string[]): Promise<Map<string, string>>;
  /** Most recent thread with this normalised subject, last active at or after `since`, sharing a participant. */
  threadBySubject(
    inboxId: string,
    normalizedSubject: string,
    since: Date,
    participants: string[],
  ): Promise<string | null>;
}

export interface ThreadingResult {
  threadId: string | null;
  matchedBy: MatchedBy;
}

/**
 * Finds the thread an incoming or outgoing message belongs to, layer by layer:
 * 1. `in_reply_to`: the In-Reply-To header names a message stored in this inbox;
 * 2. `references`: the nearest (last) References entry stored in this inbox;
 * 3. `subject`: same normalised subject, a participant in common other than the inbox
 *    itself, and the thread active within SUBJECT_WINDOW_DAYS;
 * 4. `new`.
 */
export async function resolveThread(input: ThreadingInput, lookups: ThreadLookups): Promise<ThreadingResult> {
  const inbox = input.inboxAddress.toLowerCase();
  const ids = [...new Set([input.inReplyTo, ...input.references].filter((id): id is string => Boolean(id)))];
  if (ids.length > 0) {
    const found = await lookups.threadsByMessageIds(inbox, ids);
    if (input.inReplyTo && found.has(input.inReplyTo))
      return { threadId: found.get(input.inReplyTo)!, matchedBy: 'in_reply_to' };
    for (const reference of [...input.references].reverse()) {
      const threadId = found.get(reference);
      if (threadId) return { threadId, matchedBy: 'references' };
    }
  }
  const others = [...new Set(input.participants.map((p) => p.toLowerCase()))].filter((p) => p !== inbox);
  if (input.normalizedSubject && others.length > 0) {
    const since = new Date(input.timestamp.getTime() - SUBJECT_WINDOW_MS);
    const threadId = await lookups.threadBySubject(inbox, input.normalizedSubject, since, others);
    if (threadId) return { threadId, matchedBy: 'subject' };
  }
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
