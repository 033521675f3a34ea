/**
 * The parts the ingest's batch steps use: the stored offsets a redelivery is skipped by
 * (apps/ingest/src/batch/stored-offsets.ts), the dead-letter records (dead-letter.ts) and what of a
 * database error the write path lets out (write.ts). Pure logic; Kafka and PostgreSQL in
 * test/integration/vitals/ (offsets-rebalance, poison, frames).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaMessage } from 'kafkajs';
import { createLogger } from '@vitalis/log';
import { DLQ_HEADERS, deadLetterMessages } from '../../../apps/ingest/src/batch/dead-letter';
import { createStoredOffsets } from '../../../apps/ingest/src/batch/stored-offsets';
import { isDataError, withoutRowData } from '../../../apps/ingest/src/batch/write';

const logger = createLogger('batch-parts-test', 'silent');

describe('createStoredOffsets', () => {
  it('reads a partition once, moves it on only forwards, and ignores a stored offset beyond the partition end', async () => {
    const reads: number[][] = [];
    const offsets = createStoredOffsets({
      read: async (partitions) => {
        reads.push([...partitions]);
        return new Map([
          [0, 50n],
          [1, 900n],
        ]);
      },
      logger,
      onAssignmentChecked: () => {},
    });
    expect(await offsets.nextOf(0, '100')).toBe(50n);
    expect(await offsets.nextOf(0, '100')).toBe(50n);
    expect(reads).toEqual([[0]]);
    offsets.advance(0, 60n);
    offsets.advance(0, 55n);
    expect(await offsets.nextOf(0, '100')).toBe(60n);
    // beyond the high watermark: the topic was recreated, nothing is skipped
    expect(await offsets.nextOf(1, '100')).toBe(-1n);
    expect(await offsets.nextOf(2, '100')).toBe(-1n);
  });

  it('forgets everything on an assignment, reads the assigned partitions, and a failed read leaves them to the first batch', async () => {
    let fail = false;
    let checked = 0;
    const reads: number[][] = [];
    const offsets = createStoredOffsets({
      read: async (partitions) => {
        reads.push([...partitions]);
        if (fail) throw new Error('database gone');
        return new Map([
          [0, 10n],
          [1, 20n],
        ]);
      },
      logger,
      onAssignmentChecked: () => void (checked += 1),
    });
    offsets.advance(0, 99n);
    offsets.assigned([0, 1]);
    expect(await offsets.nextOf(0, '100')).toBe(10n);
    expect(await offsets.nextOf(1, '100')).toBe(20n);
    expect(checked).toBe(1);
    fail = true;
    offsets.assigned([0, 1]);
    await expect(offsets.nextOf(0, '100')).rejects.toThrow('database gone'); // the batch fails and is fetched again
    expect(checked).toBe(1);
    fail = false;
    expect(await offsets.nextOf(0, '100')).toBe(10n);
    expect(reads).toEqual([[0, 1], [0, 1], [0], [0]]);
  });
});

describe('deadLetterMessages', () => {
  it('keeps the record and names why and where it came from (a frame: which observations)', () => {
    const message = {
      key: Buffer.from('pat-1'),
      value: Buffer.from('{}'),
      offset: '42',
      headers: { traceparent: 'tp' },
      timestamp: '1',
      attributes: 0,
    } as KafkaMessage;
    const [whole, frame] = deadLetterMessages(
      { topic: 'vitals', groupId: 'ingest' },
      3,
      [
        { message, reasons: ['not JSON', 'x'.repeat(3_000)], items: [] },
        { message, reasons: ['observations.1 schema-invalid'], items: [1, 4] },
      ],
      '2026-11-29T00:00:00.000Z',
    );
    expect(whole).toMatchObject({ key: message.key, value: message.value });
    expect(whole!.headers).toEqual({
      traceparent: 'tp',
      [DLQ_HEADERS.reason]: `not JSON; ${'x'.repeat(3_000)}`.slice(0, 2_000),
      [DLQ_HEADERS.topic]: 'vitals',
      [DLQ_HEADERS.partition]: '3',
      [DLQ_HEADERS.offset]: '42',
      [DLQ_HEADERS.group]: 'ingest',
      [DLQ_HEADERS.failedAt]: '2026-11-29T00:00:00.000Z',
    });
    expect(frame!.headers![DLQ_HEADERS.frameItems]).toBe('1,4');
  });
});

describe('the write path’s errors', () => {
  it('tells data the database refuses from a database that is unwell', () => {
    expect(isDataError({ code: '22003' })).toBe(true);
    expect(isDataError({ code: '23514' })).toBe(true);
    expect(isDataError({ code: '54000' })).toBe(true);
    expect(isDataError({ code: '23505' })).toBe(false); // a unique violation: the staged path handles it
    expect(isDataError({ code: '57P03' })).toBe(false);
    expect(isDataError(new Error('no code'))).toBe(false);
  });

  it('throws on a database error without the row PostgreSQL quotes in its detail and context', () => {
    const err = Object.assign(new Error('value too long'), {
      code: '22001',
      detail: 'Failing row contains (pat-1, …)',
      where: 'COPY vitals_observations, line 1',
    });
    const out = withoutRowData(err) as Error & { code?: string; detail?: string };
    expect(out).toMatchObject({ name: 'DatabaseError', message: 'value too long', code: '22001' });
    expect(out.detail).toBeUndefined();
    const plain = new Error('connection reset');
    expect(withoutRowData(plain)).toBe(plain);
  });
});
