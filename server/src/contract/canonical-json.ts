import { createHash } from 'node:crypto';

/**
 * The canonical form of a JSON document: object keys sorted by UTF-16 code units, no whitespace,
 * numbers and strings as JSON.stringify writes them (the rules of RFC 8785, JCS, for the values an
 * OpenAPI document holds). Two documents that differ only in key order or indentation have the
 * same canonical form, so the fingerprint follows the contract, not its formatting.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 (hex) of the canonical form: what openapi/<document>.sha256 holds. */
export function fingerprintOf(document: unknown): string {
  return createHash('sha256').update(canonicalJson(document)).digest('hex');
}
