/**
 * Observations that reach the append log straight from Kafka (devices publishing to the topic, not
 * through the gateway) are audited too: one `vitals.ingest` row per stored batch, in the batch's
 * own transaction, with ids and counts only (security finding 11).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@vitalis/db';
import { writeRows, writeRowsByPartition, type StoredRow } from '../../../apps/ingest/src/store';
import { testPool, uid } from './support';

const pool = testPool();
afterAll(() => pool.end());

const T0 = Date.now() - 3_600_000;
const row = (patient: string, seq: number, partition: number, offset: number): StoredRow => ({
  patient_id: patient,
  device_id: `${patient}-dev`,
  seq,
  code: '8867-4',
  effective_at: new Date(T0 + seq * 1000).toISOString(),
  value: 72,
  unit: '/min',
  sample_period_ms: null,
  steps: null,
  kafka_partition: partition,
  kafka_offset: String(offset),
});

const ingestRows = async (topic: string) =>
  (
    await pool.query(
      "SELECT outcome, actor_subject, scope, resource_type, resource_id, detail FROM audit_events WHERE action = 'vitals.ingest' AND detail->>'topic' = $1 ORDER BY id",
      [topic],
    )
  ).rows;

describe('vitals.ingest audit', () => {
  it('a batch of two partitions and two patients writes exactly one row: offset ranges and counts, never values', async () => {
    const topic = `vitals.test.ingest-audit.${uid()}`;
    const a = `pat-ia-${uid()}`;
    const b = `pat-ia-${uid()}`;
    const batch = [row(a, 1, 0, 10), row(a, 2, 0, 11), row(b, 1, 1, 40), row(a, 3, 0, 12), row(b, 2, 1, 41)];
    await withTransaction(pool, (c) => writeRowsByPartition(c, topic, batch));
    expect(await ingestRows(topic)).toEqual([
      {
        outcome: 'success',
        actor_subject: 'vitalis-ingest',
        scope: null,
        resource_type: 'Observation',
        resource_id: null,
        detail: {
          topic,
          rows: 5,
          received: 5,
          patients: 2,
          partitions: [
            { partition: 0, first_offset: '10', last_offset: '12', rows: 3 },
            { partition: 1, first_offset: '40', last_offset: '41', rows: 2 },
          ],
        },
      },
    ]);
  });

  it('a redelivery stores nothing and records nothing; a partly new one records only the new rows', async () => {
    const topic = `vitals.test.ingest-audit.${uid()}`;
    const p = `pat-ia-${uid()}`;
    const first = [row(p, 1, 0, 1), row(p, 2, 0, 2)];
    await withTransaction(pool, (c) => writeRows(c, topic, first, 'unnest'));
    await withTransaction(pool, (c) => writeRows(c, topic, first, 'unnest'));
    expect(await ingestRows(topic)).toHaveLength(1);
    await withTransaction(pool, (c) => writeRows(c, topic, [...first, row(p, 3, 0, 3)], 'copy'));
    const rows = await ingestRows(topic);
    expect(rows).toHaveLength(2);
    expect(rows[1].detail).toMatchObject({
      rows: 1,
      received: 3,
      partitions: [{ partition: 0, first_offset: '3', last_offset: '3', rows: 1 }],
    });
  });

  it('the audit row rolls back with the batch', async () => {
    const topic = `vitals.test.ingest-audit.${uid()}`;
    const p = `pat-ia-${uid()}`;
    await expect(
      withTransaction(pool, async (c) => {
        await writeRows(c, topic, [row(p, 1, 0, 1)]);
        throw new Error('commit failed');
      }),
    ).rejects.toThrow('commit failed');
    expect(await ingestRows(topic)).toEqual([]);
  });
});
