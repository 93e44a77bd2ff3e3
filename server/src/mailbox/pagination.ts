import { createHmac } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { safeEqual } from '../core/crypto/hashing.ts';
import { AppError } from '../core/http/errors.ts';
import type { PageRequest } from '../core/http/pagination.ts';
import { listName } from '../core/http/schemas.ts';

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50).' }),
    ),
    page_token: Type.Optional(Type.String({ description: 'The `next_page_token` of the previous page.' })),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

export interface Position {
  t: string;
  i: string;
}

/** `{ count, limit, next_page_token, <items> }`, the list shape of the mailbox API. */
export const listEnvelope = <K extends string, T extends ReturnType<typeof Type.Object>>(key: K, item: T) =>
  Type.Object(
    {
      count: Type.Integer({ description: 'Items in this page.' }),
      limit: Type.Integer(),
      next_page_token: Type.Union([Type.String(), Type.Null()]),
      [key]: Type.Array(item),
    } as { count: any; limit: any; next_page_token: any } & Record<K, ReturnType<typeof Type.Array<T>>>,
    listName(item),
  );

/** The list's body: the rendered rows under the list's own key. */
export type ListEnvelope<K extends string, T> = {
  count: number;
  limit: number;
  next_page_token: string | null;
} & { [P in K]: T[] };

/** A page asked for: its size, where the previous one stopped, the list and caller its token is bound to. */
export interface ListPage {
  list: string;
  owner: string;
  limit: number;
  after: Position | null;
}

const DEFAULT_LIMIT = 50;

/**
 * Opaque, tamper-proof page tokens: the position of the last item (time, id), bound to the list
 * and to the caller, MACed with a key derived from ENCRYPTION_KEY.
 */
export class PageTokens {
  constructor(private readonly key: Buffer) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }

  parse(query: ListQuery, list: string, owner: string): ListPage {
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (!query.page_token) return { list, owner, limit, after: null };
    const invalid = new AppError('invalid_pagination', 'page_token is not valid for this list.', {
      param: 'page_token',
    });
    const [payload, mac] = query.page_token.split('.');
    if (!payload || !mac || !safeEqual(mac, this.mac(`${list}|${owner}|${payload}`))) throw invalid;
    try {
      const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
      if (typeof position.t !== 'string' || typeof position.i !== 'string') throw invalid;
      return { list, owner, limit, after: position };
    } catch {
      throw invalid;
    }
  }

  encode(page: ListPage, position: Position): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.mac(`${page.list}|${page.owner}|${payload}`)}`;
  }

  /**
   * The page's body, `{ count, limit, next_page_token, <key>: [...] }` (see listEnvelope), from
   * rows fetched with limit + 1: the extra one only says there is more.
   */
  envelope<K extends string, Row, T>(
    key: K,
    page: ListPage,
    rows: Row[],
    position: (row: Row) => Position,
    render: (row: Row) => T,
  ): ListEnvelope<K, T> {
    const more = rows.length > page.limit;
    const kept = more ? rows.slice(0, page.limit) : rows;
    const last = kept[kept.length - 1];
    const token = more && last ? this.encode(page, position(last)) : null;
    return {
      count: kept.length,
      limit: page.limit,
      next_page_token: token,
      [key]: kept.map(render),
    } as ListEnvelope<K, T>;
  }
}

/** The page as the keyset helper takes it (newestFirst, core/db/keyset.ts): rows after the token's (time, id). */
export const keyset = (page: ListPage): PageRequest => ({
  limit: page.limit,
  after: page.after ? { createdAt: page.after.t, id: page.after.i } : null,
});

/** Where a row stands in a list sorted by creation, newest first. */
export const byCreation = (row: { created_at: Date; id: string }): Position => ({
  t: row.created_at.toISOString(),
  i: row.id,
});

/** Where a message or thread stands in its list, sorted by `timestamp`, most recent first. */
export const byTimestamp = (row: { timestamp: Date; id: string }): Position => ({
  t: row.timestamp.toISOString(),
  i: row.id,
});
