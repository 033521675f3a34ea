/**
 * What the monitor says about the age of its data, from the site's thresholds in `DATA` (the card
 * holds none of its own) and the shared time helper (../shared/time.ts). Pure functions of the
 * latest value time per code and `now`, no DOM: test/unit/ui/monitor-freshness.test.ts imports
 * them directly.
 *
 * - A tile: its value's age ("12 s", "16 min") and whether it is stale (older than its code's
 *   threshold).
 * - The badge: "Live" only while data is arriving and at least one value is younger than its code's
 *   threshold (never because the socket is open). When nothing at all has arrived for the
 *   device-disconnect delay (`noDataAfter`, the same setting that raises the device-disconnect
 *   alarm), "No data since HH:MM", whatever an intermittent value's own threshold (a temperature
 *   16 min old is still a current temperature, but the monitor has stopped sending); when data
 *   arrived within that delay but every value is past its threshold, "Stale · last data 20 s ago".
 * - The NEWS2 line: the total, its band, how old its oldest input is (and when it was taken), and
 *   which inputs are stale.
 */
import { age, ageSeconds, clock, isStale } from '../shared/time';
import type { MonitorData, Risk } from './data';

/** The latest value time (effective_at) per code the card has seen, ECG included. */
export type SeenAt = Readonly<Record<string, string>>;

export type DataState = 'waiting' | 'live' | 'stale' | 'nodata';

export interface DataFreshness {
  state: DataState;
  /** The badge's text. */
  text: string;
  /** The newest value's time, null before any. */
  newestAt: string | null;
}

export interface ValueAge {
  /** "12 s", "16 min". */
  age: string;
  stale: boolean;
}

export function valueAge(data: MonitorData, code: string, at: string, now: number): ValueAge {
  return { age: age(at, now), stale: isStale(code, at, data.staleAfter as Record<string, number>, now) };
}

/** The newest of `times` (ISO instants), or null. */
export function newestOf(times: readonly string[]): string | null {
  let best: string | null = null;
  for (const t of times) if (best === null || Date.parse(t) > Date.parse(best)) best = t;
  return best;
}

/** The oldest of `times` (ISO instants), or null. */
export function oldestOf(times: readonly string[]): string | null {
  let best: string | null = null;
  for (const t of times) if (best === null || Date.parse(t) < Date.parse(best)) best = t;
  return best;
}

/** The badge: whether fresh data is arriving (the device-disconnect delay), and fresh on each code's own threshold. */
export function dataFreshness(data: MonitorData, seen: SeenAt, now: number): DataFreshness {
  const newestAt = newestOf(Object.values(seen));
  if (newestAt === null) return { state: 'waiting', text: 'Waiting for data', newestAt };
  const silent = ageSeconds(newestAt, now);
  if (silent === null || silent > data.noDataAfter) return { state: 'nodata', text: 'No data since ' + clock(newestAt, now), newestAt };
  if (Object.entries(seen).some(([c, at]) => !isStale(c, at, data.staleAfter as Record<string, number>, now)))
    return { state: 'live', text: 'Live', newestAt };
  return { state: 'stale', text: 'Stale · last data ' + age(newestAt, now) + ' ago', newestAt };
}

export interface News2Line {
  score: number;
  risk: Risk;
  /** "NEWS2 12 · high · from values up to 16 min old". */
  text: string;
  /** "oldest input 10:02 · stale: HR, SpO₂" (the time of the oldest input; the stale inputs, if any). */
  detail: string;
  /** Labels of the stale inputs. */
  stale: string[];
}

/**
 * The NEWS2 line for a total over `codes`, each input's time in `seen`: its band and the age of
 * its oldest input, the stale inputs named.
 */
export function news2Line(
  data: MonitorData,
  total: { score: number; risk: Risk; codes: readonly string[] },
  seen: SeenAt,
  now: number,
): News2Line {
  const oldest = oldestOf(total.codes.flatMap((c) => seen[c] || [])); // the codes seen (a time, never '')
  // in the tiles' order (the labels' order), whatever order the values arrived in
  const ordered = Object.keys(data.labels)
    .filter((c) => total.codes.includes(c))
    .concat(total.codes.filter((c) => !(c in data.labels)));
  const stale = ordered
    .filter((c) => {
      const at = seen[c];
      return !!at && isStale(c, at, data.staleAfter as Record<string, number>, now);
    })
    .map((c) => data.labels[c] || c);
  const text = 'NEWS2 ' + total.score + ' · ' + total.risk + (oldest ? ' · from values up to ' + age(oldest, now) + ' old' : '');
  const detail = (oldest ? 'oldest input ' + clock(oldest, now) : '') + (stale.length ? ' · stale: ' + stale.join(', ') : '');
  return { score: total.score, risk: total.risk, text, detail, stale };
}
