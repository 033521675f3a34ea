/**
 * The ingest's batch steps (apps/ingest/src/batch/steps.ts), each alone over a context and fakes of
 * the worker's parts, and their order: what runs before what, and what a failing step stops. Kafka
 * and PostgreSQL (kill -9, poison, isolation, group commit, offsets) in test/integration/vitals/.
 */
import { describe, expect, it } from 'vitest';
import type { Batch, KafkaMessage } from 'kafkajs';
import { FRAME_ENVELOPE } from '@vitalis/schemas';
import { emptyIngestStats } from '../../../apps/ingest/src/batch/stats';
import { batchContext, type BatchContext, type BatchEnv, type BatchInfo, type BatchPayload } from '../../../apps/ingest/src/batch/context';
import type { Poison } from '../../../apps/ingest/src/batch/dead-letter';
import {
  BATCH_STEPS,
  commitOffsets,
  countBatch,
  deadLetterPoison,
  decode,
  poisonRefusedRows,
  publishLive,
  readStoredOffset,
  recordOffsetWithoutRows,
  runBatchSteps,
  skipRedelivered,
  store,
} from '../../../apps/ingest/src/batch/steps';
import type { PendingBatch } from '../../../apps/ingest/src/batch/write';
import type { CommittedBatch } from '../../../apps/ingest/src/live/stage';

const NOW = Date.now();
const hr = (seq: number) => ({
  patient_id: 'pat-1',
  device_id: 'dev-1',
  seq,
  effective_at: new Date(NOW).toISOString(),
  code: '8867-4',
  value: 70,
  unit: '/min',
});
const frame = (items: object[]) => ({
  envelope: FRAME_ENVELOPE,
  patient_id: 'pat-1',
  device_id: 'dev-1',
  effective_at: new Date(NOW).toISOString(),
  observations: items,
});

function message(offset: number, value: unknown): KafkaMessage {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    key: Buffer.from('pat-1'),
    value: Buffer.from(text),
    timestamp: String(NOW),
    offset: String(offset),
    headers: {},
    attributes: 0,
  } as KafkaMessage;
}

/** What the fakes saw, in order. */
type Calls = string[];

function payload(messages: KafkaMessage[], calls: Calls, running = true): BatchPayload {
  const batch = { topic: 'vitals', partition: 3, highWatermark: '1000', messages, offsetLag: () => '7' } as unknown as Batch;
  return {
    batch,
    resolveOffset: (offset: string) => void calls.push(`resolveOffset ${offset}`),
    heartbeat: async () => void calls.push('heartbeat'),
    commitOffsetsIfNecessary: async () => {},
    isRunning: () => running,
  };
}

interface Fakes {
  env: BatchEnv;
  calls: Calls;
  written: PendingBatch[];
  published: CommittedBatch[];
  deadLettered: Poison[][];
  advanced: bigint[];
  infos: BatchInfo[];
}

/** The worker's parts as fakes: `stored` says how many rows the write stores (default all), `refuse` which rows it refuses. */
function fakes(
  opts: {
    skipBefore?: bigint;
    stored?: number;
    refuse?: (row: PendingBatch['rows'][number]) => boolean;
    live?: boolean;
    ownKeys?: string[];
  } = {},
): Fakes {
  const calls: Calls = [];
  const f: Omit<Fakes, 'env'> = { calls, written: [], published: [], deadLettered: [], advanced: [], infos: [] };
  const env: BatchEnv = {
    storedOffsets: {
      assigned: () => {},
      nextOf: async () => opts.skipBefore ?? -1n,
      advance: (_partition, next) => void f.advanced.push(next),
    },
    write: async (batch) => {
      calls.push('write');
      f.written.push(batch);
      const refused = batch.rows.filter((row) => opts.refuse?.(row));
      batch.refused.push(...refused.map((row) => ({ row, reason: 'refused by the database: value out of range' })));
      return opts.stored ?? batch.rows.length - refused.length;
    },
    recordNext: async (_partition, next) => void calls.push(`recordNext ${next}`),
    storedFrom: async () => new Set(opts.ownKeys ?? []),
    afterCommit:
      opts.live === false
        ? undefined
        : async (batch) => {
            calls.push('afterCommit');
            f.published.push(batch);
          },
    deadLetter: async (_partition, items) => {
      calls.push('deadLetter');
      f.deadLettered.push(items);
    },
    offsets: {
      commit: (next) => void calls.push(`commit ${next.offset}`),
      flush: async () => void calls.push('flush'),
    },
    stats: emptyIngestStats(),
    onBatchCommitted: (info) => void f.infos.push(info),
  };
  return { ...f, env };
}

/** A context after the given steps ran. */
async function after(
  steps: ((b: BatchContext, env: BatchEnv) => unknown)[],
  messages: KafkaMessage[],
  f: Fakes,
  running = true,
): Promise<BatchContext> {
  const b = batchContext(payload(messages, f.calls, running), undefined);
  for (const step of steps) await step(b, f.env);
  return b;
}

describe('decode', () => {
  it('makes an undecodable record poison, notes frames, and keeps a frame with bad observations for its good ones', async () => {
    const f = fakes();
    const b = await after(
      [decode],
      [message(10, '{not json'), message(11, hr(1)), message(12, frame([{ seq: 1, code: '8867-4', value: 70, unit: '/min' }, { seq: 2 }]))],
      f,
    );
    expect([...b.poison.keys()]).toEqual(['10', '12']);
    expect(b.poison.get('10')).toMatchObject({ reasons: [expect.any(String)], items: [] });
    expect(b.poison.get('12')).toMatchObject({ reasons: [expect.stringMatching(/^observations\.1 schema-invalid/)], items: [1] });
    expect([...b.frames]).toEqual(['12']);
    expect(b.decoded.map((d) => [d.message.offset, d.observations.map((o) => o.item)])).toEqual([
      ['11', [0]],
      ['12', [0]],
    ]);
  });
});

describe('readStoredOffset and skipRedelivered', () => {
  it('does not write a redelivered record again, keeps its rows aside for the live stage and counts it', async () => {
    const f = fakes({ skipBefore: 11n });
    const b = await after([readStoredOffset, decode, skipRedelivered], [message(10, hr(1)), message(11, hr(2))], f);
    expect(b.skipBefore).toBe(11n);
    expect(b.skipped).toBe(1);
    expect(b.rows.map((r) => r.kafka_offset)).toEqual(['11']);
    expect(b.notWritten.map((r) => r.kafka_offset)).toEqual(['10']);
    expect(b.good.map((g) => g.offset)).toEqual([10, 11]);
    expect([...b.byOffset.keys()]).toEqual(['11']);
    expect(b.timestamps).toEqual([NOW]);
  });

  it('keeps nothing aside without a live stage', async () => {
    const f = fakes({ skipBefore: 11n, live: false });
    const b = await after([readStoredOffset, decode, skipRedelivered], [message(10, hr(1)), message(11, hr(2))], f);
    expect(b.rows).toHaveLength(1);
    expect(b.notWritten).toEqual([]);
    expect(b.good).toEqual([]);
  });
});

describe('store', () => {
  it('writes nothing when there are no rows, and then the offset is not recorded with rows', async () => {
    const f = fakes();
    const b = await after([decode, skipRedelivered, store], [message(10, '{not json')], f);
    expect(f.written).toEqual([]);
    expect(b.recorded).toBe(false);
    expect(f.advanced).toEqual([]);
  });

  it('writes the rows with the next offset and moves the stored offset on; rows not stored are duplicates', async () => {
    const f = fakes({ stored: 1 });
    const b = await after([decode, skipRedelivered, store], [message(10, hr(1)), message(11, hr(2))], f);
    expect(f.written[0]).toMatchObject({ partition: 3, next: 12n });
    expect(f.written[0]!.rows).toHaveLength(2);
    expect(b).toMatchObject({ stored: 1, duplicates: 1, recorded: true });
    expect(f.advanced).toEqual([12n]);
  });

  it('does not count a batch with refused rows as recorded', async () => {
    const f = fakes({ refuse: (row) => row.seq === 2 });
    const b = await after([decode, skipRedelivered, store], [message(10, hr(1)), message(11, hr(2))], f);
    expect(b).toMatchObject({ stored: 1, duplicates: 0, recorded: false });
    expect(b.refused.map((r) => r.row.kafka_offset)).toEqual(['11']);
    expect(f.advanced).toEqual([]);
  });
});

describe('poisonRefusedRows', () => {
  it('makes a refused single observation poison with its reason, and names a frame’s refused observation by index', async () => {
    const f = fakes({ refuse: (row) => row.seq === 2 || row.seq === 7 });
    const items = [{ seq: 7, code: '8867-4', value: 70, unit: '/min' }, { seq: 8, code: '8867-4', value: 71, unit: '/min' }, { seq: 9 }];
    const b = await after(
      [decode, skipRedelivered, store, poisonRefusedRows],
      [message(10, hr(1)), message(11, hr(2)), message(12, frame(items))],
      f,
    );
    expect(b.poison.get('11')).toMatchObject({ reasons: ['refused by the database: value out of range'], items: [] });
    expect(b.poison.get('11')!.message.offset).toBe('11');
    // the frame's schema-invalid observation 2 was poison already; the refused observation 0 joins it
    expect(b.poison.get('12')).toMatchObject({
      reasons: [expect.stringMatching(/^observations\.2 schema-invalid/), 'observations.0 refused by the database: value out of range'],
      items: [2, 0],
    });
  });
});

describe('publishLive', () => {
  it('publishes the good observations but refused ones, with the batch range and trace', async () => {
    const f = fakes({ refuse: (row) => row.seq === 2 });
    const b = await after(
      [decode, skipRedelivered, store, publishLive],
      [message(10, hr(1)), message(11, hr(2)), message(12, '{not json')],
      f,
    );
    expect(b.refused).toHaveLength(1);
    expect(f.published).toEqual([{ partition: 3, first: 10, last: 12, items: [expect.objectContaining({ offset: 10, item: 0 })] }]);
  });

  it('publishes a redelivered or duplicate row only when the log holds it from this offset', async () => {
    const f = fakes({ skipBefore: 11n, stored: 0, ownKeys: ['10/0'] });
    await after([readStoredOffset, decode, skipRedelivered, store, publishLive], [message(10, hr(1)), message(11, hr(2))], f);
    expect(f.published[0]!.items.map((i) => i.offset)).toEqual([10]);
  });

  it('does nothing without a live stage', async () => {
    const f = fakes({ live: false });
    await after([decode, skipRedelivered, store, publishLive], [message(10, hr(1))], f);
    expect(f.calls).toEqual(['write']);
  });
});

describe('deadLetterPoison, recordOffsetWithoutRows, commitOffsets, countBatch', () => {
  it('sends the poison in offset order and counts it', async () => {
    const f = fakes();
    const b = batchContext(payload([message(10, hr(1))], f.calls), undefined);
    for (const offset of ['9', '10', '2']) b.poison.set(offset, { message: message(Number(offset), 'x'), reasons: ['bad'], items: [] });
    await deadLetterPoison(b, f.env);
    expect(f.deadLettered[0]!.map((p) => p.message.offset)).toEqual(['2', '9', '10']);
    expect(b.deadLettered).toBe(3);
  });

  it('records the next offset of a batch without recorded rows, unless every record was redelivered', async () => {
    const poisonOnly = fakes();
    await after([decode, skipRedelivered, store, recordOffsetWithoutRows], [message(10, '{not json')], poisonOnly);
    expect(poisonOnly.calls).toEqual(['recordNext 11']);
    expect(poisonOnly.advanced).toEqual([11n]);

    const stored = fakes();
    await after([decode, skipRedelivered, store, recordOffsetWithoutRows], [message(10, hr(1))], stored);
    expect(stored.calls).toEqual(['write']);

    const redelivered = fakes({ skipBefore: 11n });
    await after([readStoredOffset, decode, skipRedelivered, store, recordOffsetWithoutRows], [message(10, hr(1))], redelivered);
    expect(redelivered.calls).toEqual([]);
  });

  it('resolves the last offset, commits the next, flushes when stopping, then heartbeats', async () => {
    const running = fakes();
    await after([commitOffsets], [message(10, hr(1)), message(11, hr(2))], running);
    expect(running.calls).toEqual(['resolveOffset 11', 'commit 12', 'heartbeat']);
    const stopping = fakes();
    await after([commitOffsets], [message(10, hr(1))], stopping, false);
    expect(stopping.calls).toEqual(['resolveOffset 10', 'commit 11', 'flush', 'heartbeat']);
  });

  it('counts the batch in the stats and the callback', async () => {
    const f = fakes({ skipBefore: 11n, stored: 0 });
    await after(
      [readStoredOffset, decode, skipRedelivered, store, deadLetterPoison, countBatch],
      [message(10, hr(1)), message(11, hr(2)), message(12, 'x')],
      f,
    );
    expect(f.env.stats).toMatchObject({ batches: 1, messages: 3, stored: 0, duplicates: 1, deadLettered: 1, skipped: 1 });
    expect(f.infos).toEqual([
      {
        partition: 3,
        messages: 3,
        stored: 0,
        duplicates: 1,
        deadLettered: 1,
        skipped: 1,
        timestamps: [NOW],
        committedAt: expect.any(Number),
      },
    ]);
  });
});

describe('the order of the steps', () => {
  it('is the order that keeps the guarantees', () => {
    expect(BATCH_STEPS.map((s) => s.name)).toEqual([
      'readStoredOffset',
      'decode',
      'skipRedelivered',
      'store',
      'poisonRefusedRows',
      'publishLive',
      'deadLetterPoison',
      'recordOffsetWithoutRows',
      'commitOffsets',
      'countBatch',
    ]);
  });

  it('stores, publishes, dead-letters, records and only then commits the offsets', async () => {
    const f = fakes({ refuse: (row) => row.seq === 2 });
    const b = batchContext(payload([message(10, hr(1)), message(11, hr(2)), message(12, '{not json')], f.calls), undefined);
    await runBatchSteps(b, f.env);
    expect(f.calls).toEqual(['write', 'afterCommit', 'deadLetter', 'recordNext 13', 'resolveOffset 12', 'commit 13', 'heartbeat']);
    expect(f.deadLettered[0]!.map((p) => p.message.offset)).toEqual(['11', '12']);
  });

  it('commits no offset when the live stage or the dead-letter topic fails', async () => {
    for (const failing of ['afterCommit', 'deadLetter'] as const) {
      const f = fakes();
      f.env[failing] = async () => {
        f.calls.push(`${failing} failed`);
        throw new Error('unavailable');
      };
      const b = batchContext(payload([message(10, hr(1)), message(11, '{not json')], f.calls), undefined);
      await expect(runBatchSteps(b, f.env)).rejects.toThrow('unavailable');
      expect(f.calls.at(-1)).toBe(`${failing} failed`);
      expect(f.calls.some((c) => c.startsWith('commit') || c.startsWith('recordNext') || c.startsWith('resolveOffset'))).toBe(false);
      expect(f.env.stats.batches).toBe(0);
    }
  });
});
