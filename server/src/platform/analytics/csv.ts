// CSV as RFC 4180 writes it (comma-separated, CRLF line ends, a field quoted when it holds a comma,
// a quote or a line break, quotes doubled), with a UTF-8 byte order mark so that spreadsheet
// programs read names such as "Zoë" correctly. No CSV package is a dependency of the server, and
// writing these few rules here is smaller than adding one.

/**
 * Text a spreadsheet would run as a formula (CSV injection: `=`, `+`, `-`, `@`, and a tab or a
 * carriage return before them) is written with a leading apostrophe, which spreadsheets show as
 * text. Numbers are written as numbers: only text is guarded.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as one CSV document, the first row being the header. */
export function toCsv(rows: Array<Array<string | number | null | undefined>>): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
