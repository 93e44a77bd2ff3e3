import { AppError, invalidParam } from '../../core/http/errors.ts';
import type { AttachmentFetcher } from './attachment-url.ts';
import type { OutgoingAttachment } from './compose.ts';

export const asList = (value: string | string[] | null | undefined): string[] =>
  value === undefined || value === null
    ? []
    : (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter(Boolean);

export interface AttachmentBody {
  filename?: string;
  content_type?: string;
  /** Base64 of the bytes; or `url`, exactly one of the two. */
  content?: string;
  url?: string;
  content_id?: string;
  inline?: boolean;
}

/** Reads attachments given as base64 `content` or fetched from `url`, within the message's size limit. */
export class AttachmentReader {
  constructor(
    private readonly deps: { fetcher: Pick<AttachmentFetcher, 'fetch'>; maxMessageBytes: number },
  ) {}

  async read(list: AttachmentBody[] | null | undefined): Promise<OutgoingAttachment[]> {
    const read: OutgoingAttachment[] = [];
    let used = 0;
    for (const [index, attachment] of (list ?? []).entries()) {
      const param = `attachments[${index}]`;
      if (attachment.filename && /[\r\n]/.test(attachment.filename))
        throw new AppError('parameter_invalid', 'filename must be one line.', { param: `${param}.filename` });
      if ((attachment.content === undefined) === (attachment.url === undefined))
        throw invalidParam(param, 'Give either content (base64) or url, not both.');
      const fetched =
        attachment.url !== undefined
          ? await this.deps.fetcher.fetch(attachment.url, this.deps.maxMessageBytes - used, `${param}.url`)
          : {
              content: decodeBase64(attachment.content!, `${param}.content`),
              content_type: null,
              filename: null,
            };
      used += fetched.content.length;
      if (used > this.deps.maxMessageBytes)
        throw invalidParam(
          param,
          `Attachments exceed the message limit of ${this.deps.maxMessageBytes} bytes.`,
        );
      read.push({
        filename: attachment.filename ?? fetched.filename,
        content_type: attachment.content_type ?? fetched.content_type ?? 'application/octet-stream',
        content: fetched.content,
        content_id: attachment.content_id ?? null,
        inline: attachment.inline ?? false,
      });
    }
    return read;
  }
}

/** Refuses what is not base64 instead of sending garbage. */
function decodeBase64(content: string, param: string): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) && !/^[A-Za-z0-9_-]*={0,2}$/.test(compact))
    throw invalidParam(param, 'content must be base64.');
  return Buffer.from(compact, 'base64');
}

/** How far ahead a send can be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3600_000;

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** `send_at`: an RFC 3339 instant in the future, at most 30 days ahead; null when absent (send now). */
export function parseSendAt(value: string | undefined, now: Date): Date | null {
  if (value === undefined) return null;
  const at = RFC_3339.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw invalidParam('send_at', 'send_at must be an RFC 3339 date-time, e.g. 2026-12-01T09:00:00Z.');
  if (at.getTime() <= now.getTime()) throw invalidParam('send_at', 'send_at must be in the future.');
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS)
    throw invalidParam('send_at', 'send_at can be at most 30 days ahead.');
  return at;
}
