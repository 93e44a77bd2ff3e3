import { createHmac } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { safeEqual } from '../core/crypto/hashing.ts';
import { AppError } from '../core/http/errors.ts';

export const ListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 50).' }),
  ),
  page_token: Type.Optional(Type.String({ description: 'The `next_page_token` of the previous page.' })),
});
export type ListQuery = Static<typeof ListQuery>;

export interface Position {
  t: string;
  i: string;
}

/** `{ count, limit, next_page_token, <items> }`, the list shape of the mailbox API. */
export const listEnvelope = <K extends string, T extends ReturnType<typeof Type.Object>>(key: K, item: T) =>
  Type.Object({
    count: Type.Integer({ description: 'Items in this page.' }),
    limit: Type.Integer(),
    next_page_token: Type.Union([Type.String(), Type.Null()]),
    [key]: Type.Array(item),
  } as { count: any; limit: any; next_page_token: any } & Record<K, ReturnType<typeof Type.Array<T>>>);

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

  parse(query: ListQuery, list: string, owner: string): { limit: number; after: Position | null } {
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (!query.page_token) return { limit, after: null };
    const invalid = new AppError('invalid_pagination', 'page_token is not valid for this list.', {
      param: 'page_token',
    });
    const [payload, mac] = query.page_token.split('.');
    if (!payload || !mac || !safeEqual(mac, this.mac(`${list}|${owner}|${payload}`))) throw invalid;
    try {
      const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
      if (typeof position.t !== 'string' || typeof position.i !== 'string') throw invalid;
      return { limit, after: position };
    } catch {
      throw invalid;
    }
  }

  encode(list: string, owner: string, position: Position): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.mac(`${list}|${owner}|${payload}`)}`;
  }

  /** Rows fetched with limit + 1; the extra one only says there is more. */
  page<Row, T>(
    rows: Row[],
    limit: number,
    list: string,
    owner: string,
    position: (row: Row) => Position,
    render: (row: Row) => T,
  ) {
    const more = rows.length > limit;
    const kept = more ? rows.slice(0, limit) : rows;
    const token = more && kept.length > 0 ? this.encode(list, owner, position(kept[kept.length - 1]!)) : null;
    return { count: kept.length, limit, next_page_token: token, items: kept.map(render) };
  }
}

export const afterTime = (after: Position | null) =>
  after ? { timestamp: new Date(after.t), id: after.i } : undefined;
export const afterCreated = (after: Position | null) =>
  after ? { created_at: new Date(after.t), id: after.i } : undefined;
