/** Longest file name kept, in characters (most file systems allow 255 bytes). */
const MAX_FILENAME = 200;

/**
 * An attachment's file name as an agent may safely save it: no path (`/`, `\`), no control
 * characters, no bidirectional overrides (which disguise `exe` as `txt`), trimmed, at most
 * MAX_FILENAME characters with the extension kept. Null when nothing usable is left (`..`, '').
 * The parser already decoded RFC 2047/2231 names and raw 8-bit ones (see utf8Headers).
 */
export function safeFilename(name: string | null | undefined): string | null {
  if (!name) return null;
  const cleaned = name
    .normalize('NFC')
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]/gu, '')
    .replace(/[/\\]+/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  if (cleaned === '') return null;
  if (cleaned.length <= MAX_FILENAME) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, MAX_FILENAME - extension.length) + extension;
}
