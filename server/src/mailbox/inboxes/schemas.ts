import { Type } from 'typebox';
import { Nullable, Timestamp } from '../schemas.ts';

export const Inbox = Type.Object(
  {
    inbox_id: Type.String({
      description: 'The address of the inbox; also its id.',
      examples: ['support-bot@mail.example.com'],
    }),
    email: Type.String({
      description: 'The address of the inbox (equal to `inbox_id`; the AgentMail shape has both).',
      examples: ['support-bot@mail.example.com'],
    }),
    pod_id: Type.Optional(
      Type.String({ description: 'The pod the inbox belongs to; absent when it belongs to none.' }),
    ),
    display_name: Nullable(Type.String()),
    client_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Inbox', title: 'Inbox' },
);

export const CreateInboxBody = Type.Object(
  {
    username: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?$',
        description: 'Local part; random when omitted.',
      }),
    ),
    domain: Type.Optional(
      Type.String({
        maxLength: 253,
        description: 'The service domain (default) or a verified custom domain.',
      }),
    ),
    display_name: Type.Optional(Type.String({ maxLength: 200 })),
    pod_id: Type.Optional(Type.String({ maxLength: 64 })),
    client_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'Idempotency: the same client_id returns the same inbox.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ username: 'support-bot', display_name: 'Support Bot' }] },
);

export const UpdateInboxBody = Type.Object(
  { display_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) },
  {
    additionalProperties: false,
    description: 'null clears the display name; without it (`{}`) nothing changes and the inbox is answered.',
  },
);
