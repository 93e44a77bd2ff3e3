// How values read in the dashboard: dates in the reader's locale, durations as m:ss, scores 0–100.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (value) => (value ? dateTime.format(new Date(value)) : '—');
export const formatDate = (value) => (value ? dateOnly.format(new Date(value)) : '—');
const utcDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** A calendar day the server computed in UTC (a week's Monday, a month's first day), as that day. */
export const formatUtcDate = (value) => (value ? utcDate.format(new Date(value)) : '—');

export function formatDuration(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

export const formatScore = (score) =>
  score === null || score === undefined || Number.isNaN(Number(score))
    ? '—'
    : String(Math.round(Number(score)));

export const formatNumber = (value) =>
  value === null || value === undefined ? '—' : Number(value).toLocaleString();
