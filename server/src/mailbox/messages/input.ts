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
