import { AppError, invalidParam } from '../../core/http/errors.ts';
import type { OutgoingAttachment } from './compose.ts';

export const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter(Boolean);

export interface AttachmentBody {
  filename?: string;
  content_type?: string;
  content: string;
  content_id?: string;
  inline?: boolean;
}

/** Decodes base64 attachments, refusing what is not base64 instead of sending garbage. */
export function decodeAttachments(list: AttachmentBody[] | undefined): OutgoingAttachment[] {
  return (list ?? []).map((attachment, index) => {
    const compact = attachment.content.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) && !/^[A-Za-z0-9_-]*={0,2}$/.test(compact)) {
      throw invalidParam(`attachments[${index}].content`, 'content must be base64.');
    }
    if (attachment.filename && /[\r\n]/.test(attachment.filename)) {
      throw new AppError('parameter_invalid', 'filename must be one line.', {
        param: `attachments[${index}].filename`,
      });
    }
    return {
      filename: attachment.filename ?? null,
      content_type: attachment.content_type ?? 'application/octet-stream',
      content: Buffer.from(compact, 'base64'),
      content_id: attachment.content_id ?? null,
      inline: attachment.inline ?? false,
    };
  });
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
