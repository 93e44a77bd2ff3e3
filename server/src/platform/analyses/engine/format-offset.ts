/**
 * Formats an offset in seconds as `MM:SS`. Minutes are zero-padded to two digits and may exceed 59
 * (`4503` → `"75:03"`). Fractions are truncated; negative or non-finite input is treated as 0.
 */
export function formatOffset(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}
