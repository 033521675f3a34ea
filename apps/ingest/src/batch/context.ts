/**
 * What the steps of one fetched record batch share (steps.ts): the batch as kafkajs handed it over,
 * what each step found or did (one field per fact, filled in step order), and the worker's parts the
 * steps use (`BatchEnv`), so each step is a plain function of the two that a test can call alone.
 */
import type { Context } from '@opentelemetry/api';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { must } from '@vitalis/runtime';
import type { IngestMetrics } from '@vitalis/metrics';
import type { ClockLimits, DecodedObservation } from '@vitalis/schemas';
import type { OffsetCommitter } from '../offset-committer';
import type { StoredRow } from '../store';
import type { CommittedBatch } from '../live/stage';
import type { DeadLetter, Poison } from './dead-letter';
import type { IngestStats } from './stats';
import type { StoredOffsets } from './stored-offsets';
import type { BatchWriter, PendingBatch } from './write';

export interface BatchInfo {
  partition: number;
  messages: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Redelivered records skipped: the database already held them (vitals_ingest_offsets). */
  skipped: number;
  /** Producer timestamps (ms) of the messages in the batch. */
  timestamps: number[];
  committedAt: number;
}

/** The parts of the kafkajs eachBatch payload the steps use. */
export type BatchPayload = Pick<EachBatchPayload, 'batch' | 'resolveOffset' | 'heartbeat' | 'commitOffsetsIfNecessary' | 'isRunning'>;

/** A record that decoded: its good observations (a frame's may be none, all of them bad). */
export interface DecodedMessage {
  message: KafkaMessage;
  observations: DecodedObservation[];
}

/** One fetched record batch on its way through the steps, start to offset commit. */
export interface BatchContext {
  readonly payload: BatchPayload;
  /** The batch's span context, with tracing on. */
  readonly trace: Context | undefined;
  /** The offset after the batch's last record. */
  readonly next: bigint;
  /** readStoredOffset: records before it are redelivered, their rows already in the log. */
  skipBefore: bigint;
  /** decode: the records that decoded, in offset order. */
  decoded: DecodedMessage[];
  /** decode (undecodable records, a frame's bad observations), poisonRefusedRows (rows the database refused): by offset. */
  poison: Map<string, Poison>;
  /** decode: the offsets of the records that are frames. */
  frames: Set<string>;
  /** skipRedelivered: the rows to write. */
  rows: StoredRow[];
  /** skipRedelivered: rows of redelivered records, not written: the live stage gets those the log holds from here. */
  notWritten: StoredRow[];
  /** skipRedelivered: the good observations for the live stage (only with one). */
  good: CommittedBatch['items'];
  /** skipRedelivered: the records whose rows are written, by offset. */
  byOffset: Map<string, KafkaMessage>;
  /** skipRedelivered: producer timestamps (ms) of the records whose rows are written. */
  timestamps: number[];
  /** skipRedelivered: redelivered records, not written again. */
  skipped: number;
  /** store: rows newly stored. */
  stored: number;
  /** store: rows the database refused, isolated (write.ts). */
  refused: PendingBatch['refused'];
  /** store: rows already in the log (written from another offset, or a redelivery the offsets did not know). */
  duplicates: number;
  /** store: the batch's next offset went into the database with its rows. */
  recorded: boolean;
  /** deadLetter: records sent to the dead-letter topic. */
  deadLettered: number;
}

/** A new batch's context: nothing found yet. */
export function batchContext(payload: BatchPayload, trace: Context | undefined): BatchContext {
  const { messages } = payload.batch;
  return {
    payload,
    trace,
    next: BigInt(must(messages.at(-1), "the batch's last message (kafkajs hands over no empty batch)").offset) + 1n,
    skipBefore: -1n,
    decoded: [],
    poison: new Map(),
    frames: new Set(),
    rows: [],
    notWritten: [],
    good: [],
    byOffset: new Map(),
    timestamps: [],
    skipped: 0,
    stored: 0,
    refused: [],
    duplicates: 0,
    recorded: false,
    deadLettered: 0,
  };
}

/** The worker's parts the steps use. */
export interface BatchEnv {
  /** Bounded device clocks: a record is judged at its timestamp. */
  clockLimits?: ClockLimits;
  storedOffsets: StoredOffsets;
  write: BatchWriter;
  /** Records a partition's next offset without rows (store.ts `recordNextOffsets`). */
  recordNext: (partition: number, next: bigint) => Promise<void>;
  /** The keys (`offset/item`) of these rows whose stored row came from this partition and offset (store.ts `itemsStoredFrom`). */
  storedFrom: (partition: number, rows: StoredRow[]) => Promise<Set<string>>;
  /** The live stage (alerts, fan-out); absent in benchmarks of the bare write path. */
  afterCommit?: (batch: CommittedBatch) => Promise<void>;
  deadLetter: DeadLetter;
  offsets: OffsetCommitter;
  stats: IngestStats;
  metrics?: IngestMetrics;
  onBatchCommitted?: (info: BatchInfo) => void;
}

/** One step of a batch: reads what the steps before it found, adds what it finds or does. */
export type BatchStep = (batch: BatchContext, env: BatchEnv) => void | Promise<void>;
