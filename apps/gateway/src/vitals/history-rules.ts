/**
 * The vitals history rules: an ordered range, the longest range per query shape, aggregates, cursors
 * bound to the query (and channel) that minted them; and where a patient's vitals come from
 * (`vitalsStoreFor`: `sbx-` ids from the synthetic generator, every other id from the append log).
 */
import type { Pool } from '@vitalis/db';
import { badRequest, validationFailed } from '@vitalis/http';
import { type VitalsObservation } from '@vitalis/schemas';
import { decodeHistoryCursor, type HistoryCursor } from './history-cursor';
import { dataSourceOf } from '../access/sandbox';
import { syntheticBloodPressureAt, syntheticBuckets, syntheticLatest, syntheticRaw } from './synthetic';
import {
  AGGS,
  BUCKETS,
  queryBloodPressureAt,
  queryBuckets,
  queryLatest,
  queryRaw,
  type Agg,
  type Bucket,
  type BucketPage,
  type BucketQuery,
  type RawPage,
  type RawQuery,
} from './history';

// ---------------------------------------------------------------------------------------------
// History rules

export const DAY_MS = 86_400_000;
/** Longest range per query shape (bounded work per request). */
export const MAX_RANGE_MS = { raw: 31 * DAY_MS, '1s': DAY_MS, unaligned: 31 * DAY_MS, rollup: 366 * DAY_MS } as const;

/**
 * Where the fields of a history query sit in the caller's input, for the problem's `errors[].path`:
 * '' for MCP tool arguments (`from`), 'querystring.' for REST (`querystring.from`).
 */
export type FieldPrefix = '' | 'querystring.';

export interface HistoryRange {
  /** Normalised to UTC ISO 8601 (the audit trail, the cursor fingerprint and the page echo it). */
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
}

/** `from` must be before `to`. */
export function orderedRange(from: string, to: string, at: FieldPrefix = ''): HistoryRange {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  if (!(fromMs < toMs)) throw validationFailed('from must be before to', [{ path: `${at}from`, message: 'must be before to' }]);
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), fromMs, toMs };
}

/** The aggregates of a bucketed query (default avg,min,max,count); `agg` without `bucket` is refused. */
export function aggregatesOf(bucket: Bucket | undefined, agg: string | undefined, at: FieldPrefix = ''): Agg[] | undefined {
  if (!bucket) {
    if (agg !== undefined) throw validationFailed('agg needs bucket', [{ path: `${at}agg`, message: 'only valid with bucket' }]);
    return undefined;
  }
  if (agg === undefined) return ['avg', 'min', 'max', 'count'];
  const items = [
    ...new Set(
      agg
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = items.filter((a) => !(AGGS as readonly string[]).includes(a));
  if (items.length === 0 || unknown.length > 0) {
    throw validationFailed(`agg must be a comma-separated list of ${AGGS.join(', ')}`, [
      { path: `${at}agg`, message: `unknown: ${unknown.join(', ') || '(empty)'}` },
    ]);
  }
  return items as Agg[];
}

/** Raw 31 days; buckets 31 days, 1s 1 day, 1h/1d over a minute-aligned range (the rollups) 366 days. */
export function rangeLimitMs(bucket: Bucket | undefined, fromMs: number, toMs: number): number {
  if (!bucket) return MAX_RANGE_MS.raw;
  if (bucket === '1s') return MAX_RANGE_MS['1s'];
  const rollupAligned = fromMs % BUCKETS['1m'] === 0 && toMs % BUCKETS['1m'] === 0;
  return rollupAligned && (bucket === '1h' || bucket === '1d') ? MAX_RANGE_MS.rollup : MAX_RANGE_MS.unaligned;
}

export function assertRangeWithinLimit(range: HistoryRange, bucket: Bucket | undefined, at: FieldPrefix = ''): void {
  const limit = rangeLimitMs(bucket, range.fromMs, range.toMs);
  if (range.toMs - range.fromMs > limit) {
    throw validationFailed(`The range is too long for this query: at most ${limit / DAY_MS} days`, [
      { path: `${at}to`, message: `range must be at most ${limit / DAY_MS} days` },
    ]);
  }
}

/** The cursor of a page, checked against the query it is presented with (and the kind of page). */
export function pageCursor(
  text: string | undefined,
  fingerprint: string,
  kind: HistoryCursor['k'],
  at: FieldPrefix = '',
): HistoryCursor | undefined {
  if (text === undefined) return undefined;
  const cursor = decodeHistoryCursor(text);
  if (!cursor || cursor.q !== fingerprint || cursor.k !== kind) {
    throw badRequest('The cursor is invalid or belongs to a different query.', {
      errors: [{ path: `${at}cursor`, message: 'invalid cursor' }],
    });
  }
  return cursor;
}

// ---------------------------------------------------------------------------------------------
// Where the data comes from

/** A patient's vitals, in the append log's shapes (vitals/history.ts). */
export interface VitalsStore {
  raw(q: RawQuery): Promise<RawPage>;
  buckets(q: BucketQuery): Promise<BucketPage>;
  latest(patientId: string, codes: string[]): Promise<VitalsObservation[]>;
  /** The systolic and diastolic readings at these instants (pairing blood-pressure panels). */
  bloodPressureAt(patientId: string, at: readonly string[]): Promise<VitalsObservation[]>;
}

const syntheticStore: VitalsStore = {
  raw: async (q) => syntheticRaw(q),
  buckets: async (q) => syntheticBuckets(q),
  latest: async (patientId, codes) => syntheticLatest(patientId, codes),
  bloodPressureAt: async (patientId, at) => syntheticBloodPressureAt(patientId, at),
};

/** The one choice: synthetic sandbox patients (`sbx-`) from the generator, every other id from the append log. */
export function vitalsStoreFor(pool: Pool, patientId: string): VitalsStore {
  if (dataSourceOf([patientId]) === 'synthetic') return syntheticStore;
  return {
    raw: (q) => queryRaw(pool, q),
    buckets: (q) => queryBuckets(pool, q),
    latest: (id, codes) => queryLatest(pool, id, codes),
    bloodPressureAt: (id, at) => queryBloodPressureAt(pool, id, at),
  };
}
