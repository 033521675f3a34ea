/**
 * Live streams of the synthetic sandbox patients: the live hub's contract (`subscribe(options, sink)`,
 * the same messages, ids, resume and token rules), served from the generator (synthetic.ts) instead of
 * Redis and the append log. Each roster patient is one "partition" of its own (sbx-0001 → 1) whose
 * position of (second, code) is `second * 8 + code index`, so an event id is an ordinary live id
 * (`1-14246361200`, a ward `1-…_2-…`) that libs/live parses and compares. One event per code per
 * second, as each second passes.
 *
 * Resume is exact: everything after the id is regenerated (deterministic), bounded like a real
 * stream by LIVE_REPLAY_WINDOW_SECONDS (`planSyntheticResume`, with the same `replay-truncated`
 * notice and REST gaps); an id that names a partition, position or alert the generator never
 * issues is refused (UnissuedPosition → 400). Nothing is queued: a subscriber whose transport is
 * full is simply not fed until it drains, then continues from its position, so it is never lagged.
 * Streams end when their token expires or is revoked (the hub's TokenWatch).
 */
import { must } from '@vitalis/runtime';
import { cloneCursor, decodeCursor, encodeCursor, isAfter, type Cursor } from '@vitalis/live';
import type { Logger } from '@vitalis/log';
import type { CloseReason, LiveMessage, LiveSink, ReplaySummary, SubscribeOptions, Subscription } from './hub';
import { UnissuedPosition, resumePlanOf, type ReplayGap, type ResumePlan } from './resume';
import { TokenWatch, type TokenBinding } from '../access/token-watch';
import {
  isoMicros,
  positionOf,
  SECOND_DONE,
  SLOTS_PER_SECOND,
  SYNTHETIC_CODES,
  SYNTHETIC_HISTORY_MS,
  syntheticObservation,
  syntheticPatient,
  syntheticPatientOfPartition,
  type SyntheticPatient,
} from './synthetic';

const nowSecond = (nowMs = Date.now()) => Math.floor(nowMs / 1000);
const secondOf = (offset: number) => Math.floor(offset / SLOTS_PER_SECOND);

/** Why a position was never issued by the generator; undefined when it could have been. */
function unissuedReason(partition: number, offset: number, k: number, nowMs: number): string | undefined {
  if (!syntheticPatientOfPartition(partition)) return `partition ${partition} holds nothing this stream issued`;
  if (k !== 0) return 'the sandbox stream has no alerts';
  const slot = offset % SLOTS_PER_SECOND;
  if (slot >= SYNTHETIC_CODES.length && slot !== SECOND_DONE) return `offset ${offset} of partition ${partition} was never issued`;
  if (offset > positionOf(nowSecond(nowMs), SECOND_DONE)) return `offset ${offset} is beyond the latest position of partition ${partition}`;
  return undefined;
}

/**
 * The synthetic counterpart of resume.ts `planResume`: checks a resume position (throws
 * UnissuedPosition) and bounds it to the replay window; a watched patient whose position is older
 * gets a gap to read through REST (from its first skipped observation to the window's start).
 */
export function planSyntheticResume(
  q: { patients: string[]; after: Cursor; lastEventId: string; windowSeconds: number },
  nowMs = Date.now(),
): ResumePlan {
  for (const [partition, pos] of q.after) {
    const why = unissuedReason(partition, pos.offset, pos.k, nowMs);
    if (why) throw new UnissuedPosition(`Last-Event-ID is not an id this stream issued: ${why}.`);
  }
  const windowStart = nowSecond(nowMs) - q.windowSeconds;
  const start = positionOf(windowStart, SECOND_DONE);
  const horizon = Math.ceil((nowMs - SYNTHETIC_HISTORY_MS) / 1000);
  const after = cloneCursor(q.after);
  const gaps: ReplayGap[] = [];
  for (const id of new Set(q.patients)) {
    const patient = syntheticPatient(id);
    if (!patient) continue;
    const pos = q.after.get(patient.partition);
    if (pos !== undefined && pos.offset >= start) continue;
    after.set(patient.partition, { offset: start, k: 0 });
    // the first observation after the position (the next second when the position ends one)
    const next = pos === undefined ? positionOf(horizon, 0) : pos.offset + 1;
    const firstSecond = Math.max(horizon, next % SLOTS_PER_SECOND >= SYNTHETIC_CODES.length ? secondOf(next) + 1 : secondOf(next));
    if (firstSecond <= windowStart)
      gaps.push({ patient_id: id, from: isoMicros(firstSecond * 1000), to: new Date((windowStart + 1) * 1000).toISOString() });
  }
  return resumePlanOf(after, q, gaps);
}

class SyntheticSub implements Subscription {
  readonly ready = Promise.resolve();
  lastId: string | null = null;
  closed = false;
  paused = false;
  cursor: Cursor;
  readonly patients: SyntheticPatient[];
  readonly codes: number[];
  /** A resumed subscription's replay: up to this second, counted per patient, then `onReplayed`. */
  replay?: { until: number; byPatient: Map<string, number>; report: (summary: ReplaySummary) => Promise<void> } | undefined;
  notice: SubscribeOptions['notice'];
  auditing = false;

  constructor(
    readonly id: number,
    readonly opts: SubscribeOptions,
    readonly sink: LiveSink,
    readonly source: SyntheticLive,
  ) {
    const after = typeof opts.after === 'string' ? decodeCursor(opts.after) : opts.after;
    if (typeof opts.after === 'string' && !after) throw new Error(`not a live stream id: ${opts.after.slice(0, 64)}`);
    this.patients = [...new Set(opts.patients)]
      .map(syntheticPatient)
      .filter((p): p is SyntheticPatient => p !== undefined)
      .sort((a, b) => a.partition - b.partition);
    this.codes = SYNTHETIC_CODES.flatMap((code, i) => (!opts.codes?.length || opts.codes.includes(code) ? [i] : []));
    const now = nowSecond();
    this.cursor = after ? cloneCursor(after) : new Map();
    // a fresh subscription starts after the current second; a resumed one after its id
    for (const p of this.patients)
      if (!this.cursor.has(p.partition)) this.cursor.set(p.partition, { offset: positionOf(now, SECOND_DONE), k: 0 });
    if (after && opts.onReplayed) this.replay = { until: now, byPatient: new Map(), report: opts.onReplayed };
    this.notice = opts.notice;
  }

  get token(): TokenBinding | undefined {
    return this.opts.token;
  }

  /** Hands over every event available (up to the current second) until the transport is full. */
  pump(): void {
    if (this.closed || this.paused || this.auditing) return;
    if (this.notice) {
      const data = this.notice;
      this.notice = undefined;
      if (!this.sink.send({ type: 'replay-truncated', data, json: JSON.stringify(data) })) return void (this.paused = true);
    }
    const last = nowSecond();
    // the earliest second any watched partition still has to deliver
    let second = Math.min(
      ...this.patients.map((p) => secondOf(must(this.cursor.get(p.partition), `the position of partition ${p.partition}`).offset + 1)),
    );
    for (; second <= last; second++) {
      if (this.replay && second > this.replay.until) return void this.#replayed(this.replay);
      for (const p of this.patients) {
        for (const i of this.codes) {
          const offset = positionOf(second, i);
          if (!isAfter(this.cursor, p.partition, { offset, k: 0 })) continue;
          this.cursor.set(p.partition, { offset, k: 0 });
          const data = syntheticObservation(p, i, second);
          const msg: LiveMessage = { type: 'observation', id: encodeCursor(this.cursor), data, json: JSON.stringify(data) };
          this.lastId = msg.id;
          if (this.replay) this.replay.byPatient.set(p.id, (this.replay.byPatient.get(p.id) ?? 0) + 1);
          if (!this.sink.send(msg)) return void (this.paused = true);
          if (this.closed) return;
        }
        // the second is done for this patient (also when a code filter skipped the rest)
        const done = positionOf(second, SECOND_DONE);
        if (this.codes.length < SYNTHETIC_CODES.length && isAfter(this.cursor, p.partition, { offset: done, k: 0 }))
          this.cursor.set(p.partition, { offset: done, k: 0 });
      }
    }
    if (this.replay && last >= this.replay.until) this.#replayed(this.replay);
  }

  /** The replay reached the second it was opened in: its audit, before anything live follows. */
  #replayed({ byPatient, report }: NonNullable<SyntheticSub['replay']>): void {
    this.replay = undefined;
    this.auditing = true;
    report({ events: [...byPatient.values()].reduce((a, b) => a + b, 0), byPatient } satisfies ReplaySummary).then(
      () => {
        this.auditing = false;
        this.pump();
      },
      (err: unknown) => {
        this.source.logger.error({ err, subscription: this.id }, 'sandbox live replay audit failed; closing the stream');
        this.end('error');
      },
    );
  }

  resume(): void {
    if (this.closed) return;
    this.paused = false;
    this.pump();
  }

  end(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.source.remove(this);
    this.sink.close(reason);
  }

  unsubscribe(): void {
    if (this.closed) return;
    this.closed = true;
    this.source.remove(this);
  }
}

export interface SyntheticLiveOptions {
  logger: Logger;
  revokedAmong?: (ids: string[]) => Promise<Set<string>>;
  tokenCheckMs?: number;
  /** How often subscribers are fed what the passing seconds produced. */
  tickMs?: number;
}

/** The synthetic live source (one per gateway, next to the hub; live-sources.ts picks between them). */
export class SyntheticLive {
  readonly #subs = new Set<SyntheticSub>();
  readonly #tokens: TokenWatch;
  #timer?: NodeJS.Timeout;
  #nextId = 1;
  readonly logger: Logger;

  constructor(private readonly opts: SyntheticLiveOptions) {
    this.logger = opts.logger;
    this.#tokens = new TokenWatch({ logger: opts.logger, revokedAmong: opts.revokedAmong, checkMs: opts.tokenCheckMs });
  }

  get subscribers(): number {
    return this.#subs.size;
  }

  start(): void {
    this.#tokens.start();
    this.#timer = setInterval(() => {
      for (const s of [...this.#subs]) s.pump();
    }, this.opts.tickMs ?? 200);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
    this.#tokens.stop();
    for (const s of [...this.#subs]) s.end('shutdown');
  }

  subscribe(options: SubscribeOptions, sink: LiveSink): Subscription {
    const s = new SyntheticSub(this.#nextId++, options, sink, this);
    this.#subs.add(s);
    this.#tokens.add(s);
    // the first events after the caller has its Subscription (and has seen `ready`)
    setImmediate(() => s.pump());
    return s;
  }

  remove(s: SyntheticSub): void {
    this.#subs.delete(s);
    this.#tokens.delete(s);
  }
}
