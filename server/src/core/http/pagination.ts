import { createHmac } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { safeEqual } from '../crypto/hashing.ts';
import { AppError } from './errors.ts';
import { listName } from './schemas.ts';

/** Query parameters of every list: pagination is opt-in (send neither and the list comes whole). */
export const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 25).' }),
  ),
  cursor: Type.Optional(Type.String({ description: 'Opaque cursor from a previous page (`next_cursor`).' })),
  starting_after: Type.Optional(Type.String({ description: 'Alias of `cursor`.' })),
});
export type PageQuery = Static<typeof PageQuery>;

export const PAGE_PARAMS = ['limit', 'cursor', 'starting_after'];

/** Where the previous page stopped: the sort key of its last row (created_at, then id). */
export interface Position {
  createdAt: string;
  id: string | number;
}

/** Where a row stands in a newest-first list ordered by `created_at`, then `id`. */
export const positionOf = (row: { created_at: Date; id: string | number }): Position => ({
  createdAt: row.created_at.toISOString(),
  id: row.id,
});

export interface PageRequest {
  limit: number;
  after: Position | null;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export const pageEnvelope = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    },
    listName(item, 'Page'),
  );

const DEFAULT_LIMIT = 25;

/**
 * Cursors are `<payload>.<mac>`: the payload names the list and workspace they were issued for,
 * and the MAC (keyed by a secret derived from ENCRYPTION_KEY) makes them tamper-proof, so a
 * cursor from another list or workspace, or an edited one, is refused.
 */
export class Paginator {
  constructor(private readonly key: Buffer) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }

  encode(list: string, accountId: string, position: Position): string {
    const payload = Buffer.from(
      JSON.stringify({ l: list, a: accountId, c: position.createdAt, i: position.id }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  private decode(cursor: string, list: string, accountId: string, param: string): Position {
    const invalid = () =>
      new AppError(
        'invalid_pagination',
        `The ${param} is not valid for this list. Pass back next_cursor verbatim.`,
        {
          param,
        },
      );
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined || !safeEqual(mac, this.mac(payload))) throw invalid();
    let parsed: { l?: unknown; a?: unknown; c?: unknown; i?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (parsed.l !== list || parsed.a !== accountId || typeof parsed.c !== 'string') throw invalid();
    if (typeof parsed.i !== 'string' && typeof parsed.i !== 'number') throw invalid();
    return { createdAt: parsed.c, id: parsed.i };
  }

  /** null when the caller asked for no pagination (neither limit nor cursor). */
  parse(query: PageQuery, list: string, accountId: string): PageRequest | null {
    const cursor = query.cursor ?? query.starting_after;
    if (query.limit === undefined && cursor === undefined) return null;
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new AppError('invalid_pagination', 'limit must be an integer from 1 to 100.', { param: 'limit' });
    }
    return { limit, after: this.position(query, list, accountId) };
  }

  /**
   * Where the cursor (or `starting_after`) says the previous page stopped; null without one. For
   * lists whose `limit` is not a 1-to-100 page size (memories: "at most this many", up to 1000).
   */
  position(query: Pick<PageQuery, 'cursor' | 'starting_after'>, list: string, accountId: string) {
    const cursorParam = query.cursor !== undefined ? 'cursor' : 'starting_after';
    const cursor = query.cursor ?? query.starting_after;
    return cursor === undefined ? null : this.decode(cursor, list, accountId, cursorParam);
  }

  /** Builds the page from rows fetched with `limit + 1` (the extra row only says there is more). */
  page<Row, T>(
    rows: Row[],
    request: PageRequest,
    list: string,
    accountId: string,
    positionOf: (row: Row) => Position,
    render: (row: Row) => T,
  ): Page<T> {
    const hasMore = rows.length > request.limit;
    const kept = hasMore ? rows.slice(0, request.limit) : rows;
    const last = kept[kept.length - 1];
    return {
      object: 'list',
      data: kept.map(render),
      has_more: hasMore,
      next_cursor: hasMore && last ? this.encode(list, accountId, positionOf(last)) : null,
    };
  }
}
