import { type TSchema, Type } from 'typebox';
import { Nullable, Timestamp } from '../core/http/schemas.ts';

export { Nullable, Timestamp };

export const InboxIdParam = Type.Object({
  inbox_id: Type.String({ description: 'The inbox address, e.g. `agent@mail.example.com`.', maxLength: 320 }),
});

export const StringList = (description: string, maxItems = 100) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 998 }), { description, maxItems });

export const Deleted = Type.Null();

export const objectSchema = <T extends Record<string, TSchema>>(title: string, properties: T) =>
  Type.Object(properties, { title, additionalProperties: false });
