/**
 * Times and ages on the cards: one formatting helper for every card (board, search, monitor).
 *
 * - `clock`: 24-hour `HH:MM` in the browser's time zone, never a 12-hour clock and always two
 *   digits; when the instant is not today (local day) the date comes first ("14 Mar 09:05", with
 *   the year when it is not this year). `clockSeconds`: the same with `:SS` (where seconds matter:
 *   a vital value's time, an acknowledgement).
 * - `age`: how long ago, in the largest whole unit ("12 s", "16 min", "3 h", "2 d"); an instant in
 *   the future (a device clock slightly ahead) is "0 s".
 * - `isStale`: a value older than its code's threshold (`staleAfter`, seconds per vital code, the
 *   server's `alarmSettings().staleAfterSeconds` injected as the card's DATA).
 *
 * `now` (ms since the epoch) defaults to `Date.now()`; tests pass it. An unparseable instant
 * formats as "—" and is stale (a value whose time is unknown is never passed off as current).
 * Pure functions, no DOM: the unit tests import this file directly.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const UNKNOWN = '—';

const two = (n: number): string => (n < 10 ? '0' : '') + String(n);

function parse(iso: string): Date | null {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? null : d;
}

function datePrefix(d: Date, now: number): string {
  const today = new Date(now);
  if (d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate()) return '';
  const year = d.getFullYear() === today.getFullYear() ? '' : ' ' + String(d.getFullYear());
  return String(d.getDate()) + ' ' + MONTHS[d.getMonth()] + year + ' ';
}

/** 24-hour `HH:MM`, preceded by the date ("14 Mar 09:05") when `iso` is not on today's (local) date. */
export function clock(iso: string, now: number = Date.now()): string {
  const d = parse(iso);
  if (!d) return UNKNOWN;
  return datePrefix(d, now) + two(d.getHours()) + ':' + two(d.getMinutes());
}

/** `clock` with seconds: `HH:MM:SS` (date first when not today). */
export function clockSeconds(iso: string, now: number = Date.now()): string {
  const d = parse(iso);
  if (!d) return UNKNOWN;
  return datePrefix(d, now) + two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
}

/** Whole seconds since `iso` (0 for an instant in the future), or null when it does not parse. */
export function ageSeconds(iso: string, now: number = Date.now()): number | null {
  const d = parse(iso);
  return d ? Math.max(0, Math.floor((now - d.getTime()) / 1_000)) : null;
}

/** How long ago: "12 s" under a minute, "16 min" under an hour, "3 h" under a day, then "2 d". */
export function age(iso: string, now: number = Date.now()): string {
  const s = ageSeconds(iso, now);
  if (s === null) return UNKNOWN;
  if (s < 60) return String(s) + ' s';
  if (s < 3_600) return String(Math.floor(s / 60)) + ' min';
  if (s < 86_400) return String(Math.floor(s / 3_600)) + ' h';
  return String(Math.floor(s / 86_400)) + ' d';
}

/**
 * Whether a value of `code` taken at `iso` is older than its threshold. A code missing from
 * `staleAfter` is judged on the table's shortest threshold (the cautious reading); an empty table
 * judges nothing stale unless the time is unknown.
 */
export function isStale(code: string, iso: string, staleAfter: Record<string, number>, now: number = Date.now()): boolean {
  const d = parse(iso);
  if (!d) return true;
  const thresholds = Object.values(staleAfter);
  const own = Object.hasOwn(staleAfter, code) ? staleAfter[code] : undefined;
  const after = own ?? (thresholds.length ? Math.min(...thresholds) : Infinity);
  return (now - d.getTime()) / 1_000 > after;
}
