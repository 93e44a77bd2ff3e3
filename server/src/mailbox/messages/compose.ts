import MailComposer from 'nodemailer/lib/mail-composer';

export interface OutgoingAttachment {
  filename: string | null;
  content_type: string;
  content: Buffer;
  content_id: string | null;
  inline: boolean;
}

/** What a message says and to whom: the part a client writes, sent or kept as a draft. */
export interface MailContent {
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  attachments: OutgoingAttachment[];
  headers?: Record<string, string>;
}

export interface OutgoingMail extends MailContent {
  from: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  date: Date;
}

/** Builds the RFC 5322 bytes once: the same bytes are stored, relayed and delivered internally. Bcc stays out of the headers. */
export async function composeMime(mail: OutgoingMail): Promise<Buffer> {
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length ? mail.cc : undefined,
    replyTo: mail.reply_to.length ? mail.reply_to : undefined,
    subject: mail.subject,
    text: mail.text ?? undefined,
    html: mail.html ?? undefined,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo ?? undefined,
    references: mail.references.length ? mail.references : undefined,
    date: mail.date,
    headers: mail.headers,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? undefined,
      contentType: a.content_type,
      content: a.content,
      cid: a.content_id ?? undefined,
      contentDisposition: a.inline ? 'inline' : 'attachment',
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  } as never);
  return new Promise((resolve, reject) => {
    composer
      .compile()
      .build((error: Error | null, message: Buffer) => (error ? reject(error) : resolve(message)));
  });
}
