import type { OutboundRecipient } from '../tables.ts';
import type { ThreadRow } from '../threads/repository.ts';
import type { AttachmentRow, MessageRow } from './repository.ts';

export interface AttachmentObject {
  attachment_id: string;
  filename: string | null;
  content_type: string;
  size: number;
  content_id: string | null;
  inline: boolean;
}

export interface MessageObject {
  inbox_id: string;
  thread_id: string | null;
  message_id: string;
  labels: string[];
  timestamp: string;
  from: string;
  reply_to: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  preview: string;
  text: string | null;
  html: string | null;
  extracted_text: string | null;
  extracted_html: string | null;
  attachments: AttachmentObject[];
  in_reply_to: string | null;
  references: string[];
  headers: Record<string, string>;
  headers_truncated: boolean;
  size: number;
  status: MessageRow['status'];
  matched_by: MessageRow['matched_by'];
  auto_reply: boolean;
  auto_reply_reason: string | null;
  rejection_reason: string | null;
  recipients: OutboundRecipient[];
  send_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ThreadObject {
  inbox_id: string;
  thread_id: string;
  labels: string[];
  timestamp: string;
  senders: string[];
  recipients: string[];
  subject: string;
  preview: string;
  last_message_id: string | null;
  message_count: number;
  size: number;
  created_at: string;
  updated_at: string;
  /** With `messages`: how many it holds (the AgentMail shape of a thread with its messages). */
  count?: number;
  messages?: MessageObject[];
}

export function toAttachment(row: AttachmentRow): AttachmentObject {
  return {
    attachment_id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size: row.size,
    content_id: row.content_id,
    inline: row.content_disposition === 'inline',
  };
}

export function toMessage(row: MessageRow, attachments: AttachmentRow[] = []): MessageObject {
  return {
    inbox_id: row.inbox_id,
    thread_id: row.thread_id,
    message_id: row.message_id,
    labels: row.labels,
    timestamp: row.timestamp.toISOString(),
    from: row.from,
    reply_to: row.reply_to,
    to: row.to,
    cc: row.cc,
    bcc: row.bcc,
    subject: row.subject,
    preview: row.preview,
    text: row.text,
    html: row.html,
    extracted_text: row.extracted_text,
    extracted_html: row.extracted_html,
    attachments: attachments.map(toAttachment),
    in_reply_to: row.in_reply_to,
    references: row.references,
    headers: row.headers,
    headers_truncated: row.headers_truncated,
    size: row.size,
    status: row.status,
    matched_by: row.matched_by,
    auto_reply: row.auto_reply,
    auto_reply_reason: row.auto_reply_reason,
    rejection_reason: row.rejection_reason,
    recipients: row.recipients,
    send_at: row.send_at ? row.send_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toThread(row: ThreadRow, messages?: MessageObject[]): ThreadObject {
  const thread: ThreadObject = {
    inbox_id: row.inbox_id,
    thread_id: row.id,
    labels: row.labels,
    timestamp: row.timestamp.toISOString(),
    senders: row.senders,
    recipients: row.recipients,
    subject: row.subject,
    preview: row.preview,
    last_message_id: row.last_message_id,
    message_count: row.message_count,
    size: row.size,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (messages) {
    thread.count = messages.length;
    thread.messages = messages;
  }
  return thread;
}

/** The first characters of the text, on one line: what a list shows. */
export function previewOf(text: string | null | undefined, html?: string | null): string {
  const source =
    text ||
    (html
      ? html.replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, ' ').replace(/<[^>]+>/g, ' ')
      : '');
  return source.replace(/\s+/g, ' ').trim().slice(0, 200);
}
