import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageRequest, Position } from './pagination.ts';

/** Rows read per database round trip while streaming a whole list. */
export const WHOLE_LIST_CHUNK = 500;
/** A whole list spends one extra unit of the caller's request budget per this many rows sent. */
export const ROWS_PER_BUDGET_UNIT = 100;

/**
 * The spec's unpaginated list (neither `limit` nor `cursor`): the same JSON array the page-less
 * path returned, but read in keyset chunks and written as it goes, so memory stays bounded by one
 * chunk whatever the list's size. Its size then weighs in the rate-limit budget (one unit per
 * ROWS_PER_BUDGET_UNIT rows), charged when the body has been written.
 */
export async function sendWholeList<Row, T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fetchPage: (page: PageRequest) => Promise<Row[]>,
  positionOf: (row: Row) => Position,
  render: (rows: Row[]) => T[] | Promise<T[]>,
): Promise<FastifyReply> {
  // The first chunk is read before the status line is sent, so a database that cannot answer is
  // the usual error response (503 and all), not a 200 cut short.
  const first = await fetchPage({ limit: WHOLE_LIST_CHUNK, after: null });
  let sent = 0;
  async function* body() {
    yield '[';
    let rows = first;
    for (;;) {
      const kept = rows.slice(0, WHOLE_LIST_CHUNK);
      let text = '';
      for (const item of await render(kept)) {
        text += (sent === 0 ? '' : ',') + JSON.stringify(item);
        sent += 1;
      }
      if (text) yield text;
      if (rows.length <= WHOLE_LIST_CHUNK) break;
      rows = await fetchPage({ limit: WHOLE_LIST_CHUNK, after: positionOf(kept[kept.length - 1]!) });
    }
    yield ']';
    const units = Math.floor(sent / ROWS_PER_BUDGET_UNIT);
    if (units > 0) await request.chargeRateLimit?.(units);
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(body()));
}
