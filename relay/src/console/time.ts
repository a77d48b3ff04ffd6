// How times and durations read in the console: relative where recency matters, exact on hover.

const UNITS: [limit: number, seconds: number, unit: Intl.RelativeTimeFormatUnit][] = [
  [60, 1, 'second'],
  [3600, 60, 'minute'],
  [86_400, 3600, 'hour'],
  [86_400 * 30, 86_400, 'day'],
  [86_400 * 365, 86_400 * 30, 'month'],
  [Number.POSITIVE_INFINITY, 86_400 * 365, 'year'],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** "3 minutes ago", "in 2 days". */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  const [, size, unit] = UNITS.find(([limit]) => abs < limit) ?? UNITS[UNITS.length - 1]!;
  return relative.format(Math.round(seconds / size), unit);
}

/** "Jun 3, 2026, 14:05" in the viewer's time zone. */
export function dateTime(iso: string): string {
  return exact.format(new Date(iso));
}

/** "Jun 3, 2026". */
export function date(iso: string): string {
  return day.format(new Date(iso));
}

/** "42 s", "5 min", "2 h 10 min". */
export function seconds(total: number): string {
  if (total < 60) return `${Math.round(total)} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

/** "812 ms", "4.2 s". */
export function millis(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export const count = new Intl.NumberFormat('en').format;
