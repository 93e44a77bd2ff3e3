// Small pieces shared by the authoring resources (personas, goals, scenarios).
import { Type } from 'typebox';
import { AppError } from '../../core/http/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** A path id that is not a UUID names nothing: 404, like an id of another workspace. */
export function requireUuid(id: string, resource: string, param = 'id'): string {
  if (!isUuid(id)) throw new AppError('resource_not_found', `No such ${resource}.`, { param });
  return id.toLowerCase();
}

/** The body of a successful DELETE: which object is gone. */
export const Deleted = (object: string) =>
  Type.Object(
    {
      id: Type.String(),
      object: Type.Literal(object),
      deleted: Type.Literal(true),
    },
    { title: `Deleted${object[0]!.toUpperCase()}${object.slice(1)}` },
  );

/** `{ data, object?, has_more?, next_cursor? }`: an envelope list, paginated when asked. */
export const DataList = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    object: Type.Optional(Type.Literal('list')),
    has_more: Type.Optional(Type.Boolean()),
    next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  });

/** Bare array when unpaginated, the page envelope otherwise (goals and personas, per the spec). */
export const ArrayOrPage = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Union([
    Type.Array(item),
    Type.Object({
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    }),
  ]);
