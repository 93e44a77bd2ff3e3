/**
 * HTTP byte ranges (RFC 9110 §14) for serving stored media, so players can seek and resume.
 *
 * Hand-written because no range parser is a dependency of ours (`range-parser` is not installed;
 * @fastify/send keeps its copy internal) and the rules we need are few: a server MAY ignore a
 * Range header, so only a single range is honoured and everything it does not understand falls
 * back to the whole representation with 200, which every client accepts.
 */

/** Inclusive byte positions inside the representation, as in `Content-Range`. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeDecision =
  /** No Range, or one we ignore: several ranges, another unit, malformed, or a stale If-Range. */
  | { kind: 'full' }
  | { kind: 'partial'; range: ByteRange }
  /** 416 with `Content-Range: bytes *\/<size>`. */
  | { kind: 'unsatisfiable' };

export interface RangeRequest {
  /** The `Range` header as received. */
  range: string | undefined;
  /** The `If-Range` header as received. */
  ifRange?: string | undefined;
}

/** What the representation's current validators are, for If-Range. */
export interface Validators {
  etag: string | null;
  lastModified: Date | null;
}

const DIGITS = /^\d+$/;

/** Decide how to answer a request for a representation of `size` bytes. */
export function decideRange(request: RangeRequest, size: number, validators: Validators): RangeDecision {
  if (request.range === undefined) return { kind: 'full' };
  if (request.ifRange !== undefined && !ifRangeHolds(request.ifRange, validators)) return { kind: 'full' };
  const equals = request.range.indexOf('=');
  if (equals < 0 || request.range.slice(0, equals).trim().toLowerCase() !== 'bytes') return { kind: 'full' };
  // A list may carry empty elements (`bytes=0-9,`), which recipients ignore (RFC 9110 §5.6.1).
  const specs = request.range
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  // Several ranges would need multipart/byteranges; answering the whole body is allowed instead.
  if (specs.length !== 1) return { kind: 'full' };
  const spec = specs[0]!;
  const dash = spec.indexOf('-');
  if (dash < 0) return { kind: 'full' };
  const first = spec.slice(0, dash);
  const last = spec.slice(dash + 1);
  if (first === '') {
    // suffix-range: the last N bytes (all of them when N exceeds the size).
    if (!DIGITS.test(last)) return { kind: 'full' };
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  if (!DIGITS.test(first) || (last !== '' && !DIGITS.test(last))) return { kind: 'full' };
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  // `last < first` is an invalid range, which RFC 9110 §14.2 answers with 416 like an
  // unsatisfiable one; a first position at or past the end is unsatisfiable.
  if (end < start || start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}

/**
 * If-Range (RFC 9110 §13.1.5): the range applies only when the validator still matches: an
 * entity tag by strong comparison (never a weak tag), a date only when it is exactly the
 * Last-Modified time.
 */
function ifRangeHolds(ifRange: string, validators: Validators): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    return validators.etag !== null && !value.startsWith('W/') && value === validators.etag;
  }
  const date = Date.parse(value);
  if (Number.isNaN(date) || validators.lastModified === null) return false;
  return Math.floor(validators.lastModified.getTime() / 1000) === Math.floor(date / 1000);
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

export function unsatisfiedContentRange(size: number): string {
  return `bytes */${size}`;
}
