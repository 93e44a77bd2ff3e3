import { type Static, type TSchema, Type } from 'typebox';
import { composeFields, composeSchemas } from '../messages/schemas.ts';
import { InboxIdParam, Nullable, Timestamp } from '../schemas.ts';

export const Draft = Type.Object(
  {
    inbox_id: Type.String(),
    draft_id: Type.String(),
    client_id: Nullable(Type.String()),
    to: Type.Array(Type.String()),
    cc: Type.Array(Type.String()),
    bcc: Type.Array(Type.String()),
    reply_to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Nullable(Type.String()),
    html: Nullable(Type.String()),
    attachments: Type.Array(
      Type.Object({
        filename: Nullable(Type.String()),
        content_type: Type.String(),
        size: Type.Integer(),
        content_id: Nullable(Type.String()),
        inline: Type.Boolean(),
      }),
    ),
    in_reply_to: Nullable(Type.String()),
    references: Type.Array(Type.String()),
    labels: Type.Array(Type.String()),
    headers: Type.Record(Type.String(), Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Draft', title: 'Draft' },
);

export const CreateDraftBody = Type.Object(
  {
    ...composeFields,
    in_reply_to: Type.Optional(Type.String({ description: 'Message-ID of the message this draft answers.' })),
    references: Type.Optional(Type.Array(Type.String())),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  {
    additionalProperties: false,
    examples: [{ to: ['customer@example.com'], subject: 'Draft reply', text: 'Proposed answer…' }],
  },
);
export type CreateDraftBody = Static<typeof CreateDraftBody>;

const clearable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const UpdateDraftBody = Type.Object(
  {
    to: clearable(composeSchemas.to),
    cc: clearable(composeSchemas.cc),
    bcc: clearable(composeSchemas.bcc),
    reply_to: clearable(composeSchemas.reply_to),
    subject: clearable(composeSchemas.subject),
    text: clearable(composeSchemas.text),
    html: clearable(composeSchemas.html),
    attachments: clearable(composeSchemas.attachments),
    labels: clearable(composeSchemas.labels),
    headers: clearable(composeSchemas.headers),
    in_reply_to: clearable(Type.String({ description: 'Message-ID of the message this draft answers.' })),
    references: clearable(Type.Array(Type.String())),
  },
  {
    additionalProperties: false,
    description:
      'Only the fields given change; null clears one. `attachments` replaces the whole list. Without any field (`{}`) nothing changes and the draft is answered.',
    examples: [{ subject: 'Revised offer', cc: null }],
  },
);
export type UpdateDraftBody = Static<typeof UpdateDraftBody>;

export const DraftParams = Type.Object({ ...InboxIdParam.properties, draft_id: Type.String() });
