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
  { $id: 'Attachment', title: 'Attachment' },
);

export const Recipient = Type.Object(
  {
    address: Type.String(),
    type: Type.Union([Type.Literal('to'), Type.Literal('cc'), Type.Literal('bcc')]),
    status: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('sent'),
        Type.Literal('delivered'),
        Type.Literal('deferred'),
        Type.Literal('rejected'),
      ],
      {
        description:
          '`delivered`: stored in an inbox of this service; `sent`: accepted by the relay; `deferred`: refused for now (4xx, relay unreachable), tried again; `rejected`: refused for good (5xx, or retries exhausted).',
      },
    ),
    attempts: Type.Integer(),
    last_response: Nullable(Type.String({ description: "The relay's last answer for this recipient." })),
    updated_at: Timestamp,
  },
  { $id: 'Recipient', title: 'Recipient' },
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
    extracted_text: Nullable(
      Type.String({
        description:
          'The new part of `text`: without quoted history and signature ("" when it only quotes). ' +
          'null without a text body, and for mail stored before extraction existed.',
      }),
    ),
    extracted_html: Nullable(
      Type.String({
        description:
          'The new part of `html`: quote and signature containers removed ("" when nothing is left). ' +
          'null without an HTML body, and for mail stored before extraction existed.',
      }),
    ),
    attachments: Type.Array(Attachment),
    in_reply_to: Nullable(Type.String()),
    references: Type.Array(Type.String()),
    headers: Type.Record(Type.String(), Type.String(), {
      description:
        'Received mail: the first value of every header (lower-cased names), at most 200 names of 4000 characters. Sent mail: the custom headers it was sent with.',
    }),
    headers_truncated: Type.Boolean({
      description: 'true when `headers` left a header out or cut a value (the raw message has them all).',
    }),
    size: Type.Integer(),
    status: Type.Union(
      [
        Type.Literal('received'),
        Type.Literal('blocked'),
        Type.Literal('scheduled'),
        Type.Literal('sending'),
        Type.Literal('sent'),
        Type.Literal('rejected'),
        Type.Literal('cancelled'),
      ],
      {
        description:
          'Outbound: `scheduled` until `send_at`, `sending` while recipients are still being tried, then `sent` (at least one got it) or `rejected` (none did); `cancelled` if cancelled while scheduled.',
      },
    ),
    matched_by: Nullable(
      Type.Union([
        Type.Literal('in_reply_to'),
        Type.Literal('references'),
        Type.Literal('quote'),
        Type.Literal('subject'),
        Type.Literal('new'),
      ]),
    ),
    auto_reply: Type.Boolean(),
    auto_reply_reason: Nullable(
      Type.String({
        description: 'The header that made it an auto-reply, e.g. `auto-submitted: auto-replied`.',
      }),
    ),
    rejection_reason: Nullable(Type.String()),
    recipients: Type.Array(Recipient, {
      description: 'Outbound: what became of each recipient (empty for inbound mail).',
    }),
    send_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'When a scheduled message goes (null: sent at once).',
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Message', title: 'Message' },
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
    count: Type.Optional(
      Type.Integer({ description: 'With `messages` (GET of one thread): how many messages it holds.' }),
    ),
    messages: Type.Optional(Type.Array(Message)),
  },
  { $id: 'Thread', title: 'Thread' },
);

export const AttachmentInput = Type.Object(
  {
    filename: Type.Optional(Type.String({ maxLength: 255 })),
    content_type: Type.Optional(Type.String({ maxLength: 255 })),
    content: Type.Optional(
      Type.String({ description: 'Base64 of the bytes (or give `url`).', contentEncoding: 'base64' }),
    ),
    url: Type.Optional(
      Type.String({
        maxLength: 2048,
        description:
          "Fetched by the service instead of `content` (https in production; private addresses refused). Content type and filename default to the response's and the URL's.",
      }),
    ),
    content_id: Type.Optional(Type.String({ maxLength: 255 })),
    inline: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Addresses = (description: string) => Type.Union([Type.String(), StringList(description, 50)]);

/** The fields a message is written with, each as it is when given (drafts also take null). */
export const composeSchemas = {
  to: Addresses('Recipients: one address or a list; `Name <addr>` accepted.'),
  cc: Addresses('Carbon-copy recipients.'),
  bcc: Addresses('Blind-copy recipients (never shown in headers).'),
  reply_to: Addresses('Reply-To addresses.'),
  subject: Type.String({ maxLength: 998 }),
  text: Type.String(),
  html: Type.String(),
  attachments: Type.Array(AttachmentInput, { maxItems: 20 }),
  labels: StringList('Labels to put on the sent copy.', 20),
  headers: Type.Record(Type.String(), Type.String(), {
    description:
      'Extra headers, `{ "X-Campaign": "spring" }`: `X-*` custom headers and List-Unsubscribe, List-Unsubscribe-Post, List-Id, Auto-Submitted, Precedence, Keywords, Comments, Importance, Priority, Sensitivity, Organization, Thread-Topic. Structural headers (From, To, Subject, Message-ID, References, Content-*, DKIM-*…) are refused.',
  }),
};

export const composeFields = {
  to: Type.Optional(composeSchemas.to),
  cc: Type.Optional(composeSchemas.cc),
  bcc: Type.Optional(composeSchemas.bcc),
  reply_to: Type.Optional(composeSchemas.reply_to),
  subject: Type.Optional(composeSchemas.subject),
  text: Type.Optional(composeSchemas.text),
  html: Type.Optional(composeSchemas.html),
  attachments: Type.Optional(composeSchemas.attachments),
  labels: Type.Optional(composeSchemas.labels),
  headers: Type.Optional(composeSchemas.headers),
};

const SendAt = Type.Optional(
  Type.String({
    description:
      'Scheduled send: an RFC 3339 instant in the future, at most 30 days ahead. The message is `scheduled` until then and can be cancelled.',
    examples: ['2026-12-01T09:00:00Z'],
  }),
);

export const SendBody = Type.Object(
  { ...composeFields, send_at: SendAt },
  {
    additionalProperties: false,
    examples: [{ to: ['customer@example.com'], subject: 'Your order', text: 'It shipped today.' }],
  },
);

export const ReplyBody = Type.Object(
  {
    ...composeFields,
    send_at: SendAt,
    reply_all: Type.Optional(
      Type.Boolean({ description: 'Also address the original To and Cc (except this inbox).' }),
    ),
  },
  { additionalProperties: false, examples: [{ text: 'Thanks, noted.' }] },
);

export const ForwardBody = Type.Object(
  {
    ...composeFields,
    send_at: SendAt,
    include_attachments: Type.Optional(
      Type.Boolean({ description: "Carry the original's attachments along (default true)." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ to: ['colleague@example.com'], text: 'FYI, see below.' }],
  },
);

export const DraftSendBody = Type.Object({ send_at: SendAt }, { additionalProperties: false });

export const MessageIdParam = Type.Object({
  inbox_id: Type.String({ maxLength: 320 }),
  message_id: Type.String({
    maxLength: 998,
    description: 'The Message-ID, URL-encoded; the angle brackets may be left out.',
  }),
});

export const DeleteQuery = Type.Object(
  {
    permanent: Type.Optional(
      Type.Boolean({
        description:
          'true: delete for good (with the raw message and attachments), whether in the trash or not. Otherwise the item moves to the trash, and moving it again changes nothing.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeletedMessage = Type.Object(
  {
    inbox_id: Type.String(),
    message_id: Type.String(),
    thread_id: Nullable(Type.String()),
    permanent: Type.Boolean({ description: 'true: gone for good; false: in the trash (label `trash`).' }),
  },
  { $id: 'DeletedMessage', title: 'DeletedMessage' },
);

export const DeletedThread = Type.Object(
  {
    inbox_id: Type.String(),
    thread_id: Type.String(),
    permanent: Type.Boolean({ description: 'true: gone for good; false: every message in the trash.' }),
  },
  { $id: 'DeletedThread', title: 'DeletedThread' },
);
