import { Type } from 'typebox';
import { Nullable, StringList, Timestamp } from '../schemas.ts';

export const Attachment = Type.Object(
  {
    attachment_id: Type.String(),
    filename: Nullable(Type.String()),
    content_type: Type.String(),
    size: Type.Integer(),
    content_id: Nullable(Type.String()),
    inline: Type.Boolean(),
  },
  { title: 'Attachment' },
);

export const Message = Type.Object(
  {
    inbox_id: Type.String(),
    thread_id: Nullable(Type.String({ description: 'null for blocked mail, which joins no thread.' })),
    message_id: Type.String({
      description: 'The RFC 5322 Message-ID, with angle brackets.',
      examples: ['<m8k2@mail.example.com>'],
    }),
    labels: Type.Array(Type.String(), {
      description: '`received`, `unread`, `sent`, `rejected`, `blocked`, plus your own.',
    }),
    timestamp: Timestamp,
    from: Type.String(),
    reply_to: Type.Array(Type.String()),
    to: Type.Array(Type.String()),
    cc: Type.Array(Type.String()),
    bcc: Type.Array(Type.String()),
    subject: Type.String(),
    preview: Type.String(),
    text: Nullable(Type.String()),
    html: Nullable(Type.String()),
    attachments: Type.Array(Attachment),
    in_reply_to: Nullable(Type.String()),
    references: Type.Array(Type.String()),
    headers: Type.Record(Type.String(), Type.String()),
    size: Type.Integer(),
    status: Type.Union([
      Type.Literal('received'),
      Type.Literal('blocked'),
      Type.Literal('sending'),
      Type.Literal('sent'),
      Type.Literal('rejected'),
    ]),
    matched_by: Nullable(
      Type.Union([
        Type.Literal('in_reply_to'),
        Type.Literal('references'),
        Type.Literal('subject'),
        Type.Literal('new'),
      ]),
    ),
    auto_reply: Type.Boolean(),
    rejection_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Message' },
);

export const Thread = Type.Object(
  {
    inbox_id: Type.String(),
    thread_id: Type.String(),
    labels: Type.Array(Type.String()),
    timestamp: Timestamp,
    senders: Type.Array(Type.String()),
    recipients: Type.Array(Type.String()),
    subject: Type.String(),
    preview: Type.String(),
    last_message_id: Nullable(Type.String()),
    message_count: Type.Integer(),
    size: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
    messages: Type.Optional(Type.Array(Message)),
  },
  { title: 'Thread' },
);

export const AttachmentInput = Type.Object(
  {
    filename: Type.Optional(Type.String({ maxLength: 255 })),
    content_type: Type.Optional(Type.String({ maxLength: 255 })),
    content: Type.String({ description: 'Base64 of the bytes.', contentEncoding: 'base64' }),
    content_id: Type.Optional(Type.String({ maxLength: 255 })),
    inline: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Addresses = (description: string) =>
  Type.Optional(Type.Union([Type.String(), StringList(description, 50)]));

export const composeFields = {
  to: Addresses('Recipients: one address or a list; `Name <addr>` accepted.'),
  cc: Addresses('Carbon-copy recipients.'),
  bcc: Addresses('Blind-copy recipients (never shown in headers).'),
  reply_to: Addresses('Reply-To addresses.'),
  subject: Type.Optional(Type.String({ maxLength: 998 })),
  text: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  attachments: Type.Optional(Type.Array(AttachmentInput, { maxItems: 20 })),
  labels: Type.Optional(StringList('Labels to put on the sent copy.', 20)),
};

export const SendBody = Type.Object(composeFields, {
  additionalProperties: false,
  examples: [{ to: ['customer@example.com'], subject: 'Your order', text: 'It shipped today.' }],
});

export const ReplyBody = Type.Object(
  {
    ...composeFields,
    reply_all: Type.Optional(
      Type.Boolean({ description: 'Also address the original To and Cc (except this inbox).' }),
    ),
  },
  { additionalProperties: false, examples: [{ text: 'Thanks, noted.' }] },
);

export const MessageIdParam = Type.Object({
  inbox_id: Type.String({ maxLength: 320 }),
  message_id: Type.String({
    maxLength: 998,
    description: 'The Message-ID, URL-encoded; the angle brackets may be left out.',
  }),
});

export const MessageListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    page_token: Type.Optional(Type.String()),
    labels: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Only messages with every one of these labels; `blocked` shows blocked mail.',
      }),
    ),
  },
  { additionalProperties: false },
);
