import { type Static, Type } from 'typebox';
import { composeFields } from '../messages/schemas.ts';
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
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Draft' },
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

export const DraftParams = Type.Object({ ...InboxIdParam.properties, draft_id: Type.String() });
