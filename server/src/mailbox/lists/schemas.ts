import { Type } from 'typebox';
import { ListQuery } from '../pagination.ts';
import { Nullable, Timestamp } from '../schemas.ts';

const DIRECTION = '`receive` checks the sender of incoming mail, `send` every recipient of outgoing mail.';
const Direction = (description: string) =>
  Type.Union([Type.Literal('receive'), Type.Literal('send')], { description });

export const ListEntry = Type.Object(
  {
    entry_id: Type.String({ examples: ['blk_7f3kq0c1x7m3v9b4h6d2', 'alw_5n2k8q0c1x7m3v9b4h6d'] }),
    list: Type.Union([Type.Literal('allow'), Type.Literal('block')]),
    direction: Direction(DIRECTION),
    scope: Type.Union([Type.Literal('namespace'), Type.Literal('pod'), Type.Literal('inbox')], {
      description: 'The level the entry belongs to: the whole workspace, one pod, or one inbox.',
    }),
    pod_id: Nullable(Type.String({ description: 'Set for a pod-level entry.' })),
    inbox_id: Nullable(Type.String({ description: 'Set for an inbox-level entry.' })),
    kind: Type.Union([Type.Literal('address'), Type.Literal('domain')]),
    value: Type.String({ examples: ['spammer@example.com', 'example.net'] }),
    reason: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'ListEntry', title: 'ListEntry' },
);

export const CreateEntryBody = Type.Object(
  {
    value: Type.String({
      minLength: 3,
      maxLength: 320,
      description: 'An address (`a@b.com`) or a domain (`b.com`, also covers its subdomains).',
    }),
    direction: Type.Optional(Direction(`${DIRECTION} Default \`receive\`.`)),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, examples: [{ value: 'spam.example', reason: 'bulk mailer' }] },
);

export const EntryListQuery = Type.Object(
  {
    ...ListQuery.properties,
    direction: Type.Optional(Direction('Only entries of this direction (default: both).')),
  },
  { additionalProperties: false },
);
