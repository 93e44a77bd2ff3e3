import { type TSchema, Type } from 'typebox';

/** Shared pieces of route schemas: the error body, timestamps, nullable values. */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-01T12:00:00.000Z'] });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorResponse = Type.Object(
  {
    status: Type.Literal('error'),
    message: Type.String(),
    error: Type.Object({
      type: Type.String({ examples: ['invalid_request_error'] }),
      code: Type.String({ examples: ['parameter_invalid'] }),
      message: Type.String(),
      param: Nullable(Type.String()),
      doc_url: Type.String(),
    }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ param: Type.String(), code: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'Error', title: 'Error' },
);

/** Adds the error body to a route's responses for every 4xx and 5xx status. */
export function withErrors<T extends Record<number, TSchema>>(responses: T) {
  return { ...responses, '4xx': ErrorResponse, '5xx': ErrorResponse };
}

export const UuidParam = Type.Object({ id: Type.String({ description: 'Resource id (UUID).' }) });

const deletedName = (object: string) =>
  `Deleted${object.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}`;

/**
 * The component name of a list of `item`: `ScenarioList` for a list of `Scenario`. A list of an
 * unnamed item stays unnamed (the operation names its response).
 */
export const listName = (item: TSchema, suffix = 'List') => {
  const { $id } = item as { $id?: unknown };
  return typeof $id === 'string' ? { $id: `${$id}${suffix}` } : {};
};

/** The body of a successful DELETE: which object is gone. */
export const Deleted = (object: string) =>
  Type.Object(
    {
      id: Type.String(),
      object: Type.Literal(object),
      deleted: Type.Literal(true),
    },
    { $id: deletedName(object), title: deletedName(object) },
  );

/** `{ data, object?, has_more?, next_cursor? }`: an envelope list, paginated when asked. */
export const DataList = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      object: Type.Optional(Type.Literal('list')),
      has_more: Type.Optional(Type.Boolean()),
      next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    },
    listName(item),
  );

/** Bare array when unpaginated, the page envelope otherwise (goals and personas, per the spec). */
export const ArrayOrPage = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Union([
    Type.Array(item),
    Type.Object(
      {
        object: Type.Literal('list'),
        data: Type.Array(item),
        has_more: Type.Boolean(),
        next_cursor: Type.Union([Type.String(), Type.Null()]),
      },
      listName(item, 'Page'),
    ),
  ]);
