import type { Static } from 'typebox';
import { invalidParam } from '../../core/http/errors.ts';
import type { SearchQuery } from './schemas.ts';

/** What a list of messages or threads is narrowed to; null fields do not narrow. */
export interface SearchFilters {
  q: string | null;
  /** An address, or a domain (no `@`) that also covers its subdomains; lower-cased. */
  from: string | null;
  to: string | null;
  labels: string[];
  after: Date | null;
  before: Date | null;
  hasAttachments: boolean | null;
}

/** `Date` rolls impossible days over (2026-02-31 becomes March 3rd); the calendar day must exist. */
function calendarDateExists(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return true;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function moment(value: string | undefined, param: string): Date | null {
  if (value === undefined) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !calendarDateExists(value))
    throw invalidParam(param, `${param} is not a valid date or date-time.`);
  return date;
}

/** The query's filters, checked beyond what the schema can say (real dates, a non-empty range). */
export function searchFilters(query: Static<typeof SearchQuery>): SearchFilters {
  const after = moment(query.after, 'after');
  const before = moment(query.before, 'before');
  if (after && before && after >= before) throw invalidParam('before', 'before must be later than after.');
  const q = query.q?.trim();
  return {
    q: q ? q : null,
    from: query.from?.toLowerCase() ?? null,
    to: query.to?.toLowerCase() ?? null,
    labels: [...new Set(query.labels ?? [])].sort(),
    after,
    before,
    hasAttachments: query.has_attachments ?? null,
  };
}

/**
 * The filters as a stable string, part of what a page token is bound to: a token only continues
 * the very query that produced it (another query's token is a 400, never a shifted page).
 */
export function filtersKey(filters: SearchFilters): string {
  return JSON.stringify([
    filters.q,
    filters.from,
    filters.to,
    filters.labels,
    filters.after?.toISOString() ?? null,
    filters.before?.toISOString() ?? null,
    filters.hasAttachments,
  ]);
}

/** Filters that look at messages (a thread matches when one of its messages does). */
export function narrowsMessages(filters: SearchFilters): boolean {
  const { q, from, to, after, before, hasAttachments } = filters;
  return Boolean(q || from || to || after || before || hasAttachments !== null);
}
