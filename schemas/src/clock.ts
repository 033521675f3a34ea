/**
 * Bounded device clocks: the one rule for how far an observation's `effective_at` may be from the
 * time it was received. A pure function of (effective_at, now, limits), used by the gateway (422 at
 * `POST /api/v1/vitals`) and by the ingest's decode (`decodeRecord`: a record published straight to
 * Kafka is dead-lettered with the same reason), so both judge alike.
 *
 * - **Ahead**: more than `maxSkewMs` after `now` is refused (a device clock ahead; such a row would
 *   outrank every real one in "latest" queries and land outside every partition).
 * - **Behind**: before `now - retentionMs` is refused (the projector drops that day's partition:
 *   `VITALS_RETENTION_DAYS`); a late observation inside the window lands as usual.
 *
 * `now` at the gateway is its clock when the request is judged; it sends that time as the Kafka
 * record's timestamp. The ingest judges by the record's timestamp (`recordNow`), never by its own
 * clock at processing, so replaying a backlog gives every record the verdict it had when produced.
 */

/** Defaults: `VITALS_MAX_CLOCK_SKEW_SECONDS` and `VITALS_RETENTION_DAYS` (libs/config `vitalsClockShape`). */
export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 300;
export const DEFAULT_RETENTION_DAYS = 30;

const DAY_MS = 86_400_000;

export interface ClockLimits {
  /** How far ahead of `now` an effective time may be, in ms. */
  maxSkewMs: number;
  /** How far behind `now` an effective time may be, in ms (the append log's retention). */
  retentionMs: number;
}

/** The limits from the two settings (seconds of skew, days of retention). */
export function clockLimits(settings: { maxSkewSeconds: number; retentionDays: number }): ClockLimits {
  return { maxSkewMs: settings.maxSkewSeconds * 1_000, retentionMs: settings.retentionDays * DAY_MS };
}

export const DEFAULT_CLOCK_LIMITS: ClockLimits = clockLimits({
  maxSkewSeconds: DEFAULT_MAX_CLOCK_SKEW_SECONDS,
  retentionDays: DEFAULT_RETENTION_DAYS,
});

const duration = (ms: number) => (ms % DAY_MS === 0 ? `${ms / DAY_MS} days` : ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`);

/**
 * Why `effectiveAt` (an `instant`: RFC 3339 with Z or an offset) is out of bounds at `now` (ms since
 * the epoch), or undefined when it is within them: `now - retentionMs <= t <= now + maxSkewMs`.
 * Sub-millisecond digits count (a time 1 µs past the bound is past it). Never throws.
 */
export function effectiveAtProblem(effectiveAt: string, now: number, limits: ClockLimits): string | undefined {
  return judgeEffectiveAt(effectiveAt, now, limits).problem;
}

/** An effective time judged (`effectiveAtProblem`), with the instant read for it: whole ms since the epoch (NaN when unreadable). */
export interface JudgedInstant {
  ms: number;
  problem: string | undefined;
}

/** `effectiveAtProblem` with the instant it read, so a caller that needs the time (the ingest) parses it once. */
export function judgeEffectiveAt(effectiveAt: string, now: number, limits: ClockLimits): JudgedInstant {
  const t = instantMs(effectiveAt);
  if (t === undefined) return { ms: Number.NaN, problem: 'must be an ISO 8601 date-time' };
  const latest = now + limits.maxSkewMs;
  if (t.ms > latest || (t.ms === latest && t.sub)) {
    return {
      ms: t.ms,
      problem: `must not be more than ${duration(limits.maxSkewMs)} ahead of the time it was received (${new Date(now).toISOString()}): the device clock is ahead`,
    };
  }
  if (t.ms < now - limits.retentionMs) {
    return {
      ms: t.ms,
      problem: `must not be more than ${duration(limits.retentionMs)} before the time it was received (${new Date(now).toISOString()}): older observations are past the append log's retention`,
    };
  }
  return { ms: t.ms, problem: undefined };
}

/**
 * The "now" the ingest judges a Kafka record by: the record's timestamp (what the gateway judged
 * with, or the producer's clock), so a replayed backlog keeps its verdicts. A timestamp that is
 * missing, or itself more than the skew ahead of `wallNow` (a producer whose clock is ahead cannot
 * vouch for its own observations), gives way to `wallNow`.
 */
export function recordNow(timestamp: string | number | undefined, wallNow: number, limits: ClockLimits): number {
  const ts = typeof timestamp === 'number' ? timestamp : Number(timestamp);
  if (timestamp === undefined || timestamp === '' || !Number.isFinite(ts) || ts <= 0) return wallNow;
  return ts > wallNow + limits.maxSkewMs ? wallNow : ts;
}

/** An instant (RFC 3339, as `instant` admits) as whole ms since the epoch; NaN when it is not one. */
export const instantEpochMs = (iso: string): number => instantMs(iso)?.ms ?? Number.NaN;

const MILLIS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An instant as whole ms since the epoch, and whether digits past the millisecond were non-zero. */
function instantMs(iso: string): { ms: number; sub: boolean } | undefined {
  // The common form (toISOString's: milliseconds, Z) is its own Date.parse input: no captures, no rebuilt text.
  if (iso.length === 24 && MILLIS_Z.test(iso)) {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) ? { ms, sub: false } : undefined;
  }
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!m) return undefined;
  const [, head, frac = '', zone] = m;
  const ms = Date.parse(`${head}.${frac.slice(0, 3).padEnd(3, '0')}${zone === 'z' ? 'Z' : zone}`);
  if (!Number.isFinite(ms)) return undefined;
  return { ms, sub: /[1-9]/.test(frac.slice(3)) };
}
