/**
 * What the monitor has already applied, and the window its MCP poll reads (./main.ts).
 *
 * The monitor hears one observation from several sources: the latest values when it opens, a tool's
 * result, the live stream, or get_vitals_history polled every second inside an MCP host. A
 * patient's observations are stored in arrival order, not in device-time order (two devices, an ECG
 * chunk a second ahead of a numeric), and the latest values at open are newer than what the history
 * has given so far. So a poll that read only what is newer than the newest value seen would skip
 * what was stored after it but carries an earlier time. Each poll reads again from
 * `POLL_OVERLAP_MS` before the newest time the polls have read, and the ledger admits each
 * observation once, by its stored identity (device, sequence number, time).
 */

/** How far back of the newest time read each poll starts again: the ingest's delay, with margin. */
export const POLL_OVERLAP_MS = 5_000;
/** Where the first poll starts, back from the card's clock: the trends' recent past. */
export const POLL_FIRST_LOOKBACK_MS = 10_000;
/** How far ahead of the card's clock a poll reads: device clocks may run a little ahead. */
export const POLL_AHEAD_MS = 60_000;

/** How long the ledger remembers an identity, back from the newest time seen: the trends' minute. */
export const LEDGER_HORIZON_MS = 60_000;

/** The stored identity of an observation (the log's unique key) and its time. */
export interface Identified {
  device_id: string;
  seq: number;
  effective_at: string;
}

/** The observations applied once each; identities older than every later read are forgotten. */
export class ObservationLedger {
  private readonly admitted = new Map<string, number>();

  /** True the first time an observation is offered, false when it was applied before (or has no time). */
  admit(o: Identified): boolean {
    const at = Date.parse(o.effective_at);
    if (Number.isNaN(at)) return false;
    const key = o.device_id + '\n' + o.seq + '\n' + at;
    if (this.admitted.has(key)) return false;
    this.admitted.set(key, at);
    return true;
  }

  /** Forgets the identities of observations older than `beforeMs`: no later read reaches them. */
  forgetBefore(beforeMs: number): void {
    for (const [key, at] of this.admitted) if (at < beforeMs) this.admitted.delete(key);
  }

  get size(): number {
    return this.admitted.size;
  }
}

/**
 * Where the next get_vitals_history poll starts (ms): `POLL_OVERLAP_MS` before the newest time the
 * polls have read, or `POLL_FIRST_LOOKBACK_MS` before now for the first.
 */
export const pollFromMs = (newestReadMs: number | null, nowMs: number): number =>
  newestReadMs === null ? nowMs - POLL_FIRST_LOOKBACK_MS : newestReadMs - POLL_OVERLAP_MS;

/** The window of the next poll, [from, to): from `pollFromMs` to `POLL_AHEAD_MS` after now. */
export function pollWindow(newestReadMs: number | null, nowMs: number): { from: string; to: string } {
  return { from: new Date(pollFromMs(newestReadMs, nowMs)).toISOString(), to: new Date(nowMs + POLL_AHEAD_MS).toISOString() };
}

/**
 * Before which time the ledger may forget: `LEDGER_HORIZON_MS` behind the newest time seen, and
 * never past where the next poll starts (`nextPollFromMs`, null without a poll).
 */
export function forgetBeforeMs(newestMs: number, nextPollFromMs: number | null): number {
  const horizon = newestMs - LEDGER_HORIZON_MS;
  return nextPollFromMs === null ? horizon : Math.min(horizon, nextPollFromMs);
}

/** The newest time among `rows` and `newestMs` (null when neither has one). */
export function newestTime(rows: readonly Identified[], newestMs: number | null): number | null {
  let newest = newestMs;
  for (const r of rows) {
    const at = Date.parse(r.effective_at);
    if (!Number.isNaN(at) && (newest === null || at > newest)) newest = at;
  }
  return newest;
}
