/**
 * Alert streams against the real PostgreSQL: a patient whose id starts like the alert category
 * never sees alert events (and is projected like any patient); the store's reads (by category,
 * several streams up to a position, latest per key, after a source position) return real rows;
 * the active conditions read past the lifecycle's acknowledgements and escalations;
 * migration 0015 moves alert events written under the old names, leaving a colliding patient's
 * own events where they are.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool, readMigrations, type PoolClient } from '@vitalis/db';
import {
  ANY,
  STREAM_CATEGORIES,
  append,
  headPosition,
  readCategory,
  readLatestPerKey,
  readStream,
  readStreams,
  type Queryable,
  type StoredEvent,
} from '@vitalis/eventstore';
import { activeAlerts, alertStream, alertsAfter, appendAlertEvent } from '@vitalis/live';
import { ALARM_EVENTS, patientStream } from '@vitalis/records';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection } from '../../../apps/projector/src/projections/definitions';
import { alertData } from '../../helpers/alert-data';
import { testEnv } from '../../helpers/env';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 4 });
afterAll(() => pool.end());
const uid = () => randomUUID().replace(/-/g, '').slice(0, 10);

/** How alert streams were named before migration 0015 (what the migration must move). */
const oldAlertStream = (patientId: string) => `patient-alerts-${patientId}`;

const register = (db: Queryable, patientId: string, stream = patientStream(patientId)) =>
  append(db, stream, ANY, [{ type: 'PatientRegistered', data: { patientId, family: 'Collide', given: ['Al'] } }]);

/** Reads a category forward from `after` until `done` holds (the gap-safe horizon may lag a moment). */
async function readCategoryUntil(category: string, after: number, done: (events: StoredEvent[]) => boolean): Promise<StoredEvent[]> {
  const seen: StoredEvent[] = [];
  const deadline = Date.now() + 30_000;
  while (!done(seen) && Date.now() < deadline) {
    const batch = await readCategory(pool, category, after, 1000);
    seen.push(...batch);
    if (batch.length > 0) after = batch[batch.length - 1]!.globalPosition;
    else await new Promise((r) => setTimeout(r, 20));
  }
  return seen;
}

describe('alert streams cannot collide with patient streams', () => {
  it('patient `alerts-<id>` reads only its own events; alerts of patient <id> stay in their stream', async () => {
    const id = `pat-${uid()}`;
    const lookalike = `alerts-${id}`; // under the old names its stream was patient <id>'s alert stream
    const before = await headPosition(pool);
    await register(pool, lookalike);
    await register(pool, id);
    await appendAlertEvent(pool, { data: alertData(id, 'spo2-low', 'raised', 1, 100), position: { partition: 3, offset: 100, k: 1 } });

    expect((await readStream(pool, patientStream(lookalike))).map((e) => e.type)).toEqual(['PatientRegistered']);
    expect((await readStream(pool, alertStream(id))).map((e) => [e.type, e.data.patient_id])).toEqual([['VitalsAlertRaised', id]]);
    expect(await activeAlerts(pool, [lookalike])).toEqual(new Map());
    expect(await activeAlerts(pool, [id, lookalike])).toEqual(new Map([[id, ['spo2-low']]]));

    // reading by category is exact: the patient category holds no alert, the alert category no patient
    const patients = await readCategoryUntil(
      STREAM_CATEGORIES.patient,
      before,
      (es) => es.filter((e) => [patientStream(lookalike), patientStream(id)].includes(e.streamId)).length === 2,
    );
    expect(patients.filter((e) => e.streamId === patientStream(lookalike) || e.streamId === patientStream(id))).toHaveLength(2);
    expect(patients.some((e) => e.type.startsWith('VitalsAlert'))).toBe(false);
    expect(patients.some((e) => e.streamId === alertStream(id))).toBe(false);
    const alerts = await readCategoryUntil(STREAM_CATEGORIES.patientAlerts, before, (es) => es.some((e) => e.streamId === alertStream(id)));
    expect(alerts.filter((e) => e.streamId === alertStream(id))).toHaveLength(1);
    expect(alerts.some((e) => e.type === 'PatientRegistered')).toBe(false);

    // the projection owns the patient category exactly: the lookalike is a patient like any other
    await catchUpTo(pool, patientsProjection, await headPosition(pool));
    const { rows } = await pool.query<{ patient_id: string }>(
      'SELECT patient_id FROM rm_patients WHERE patient_id = ANY($1) ORDER BY patient_id',
      [[lookalike, id]],
    );
    expect(rows.map((r) => r.patient_id)).toEqual([lookalike, id].sort());
  });
});

describe('event store reads for the projector and replay', () => {
  it('readStreams returns the stored rows (ids, metadata, schema version), up to a position', async () => {
    const [a, b] = [`test-${uid()}`, `test-${uid()}`];
    const first = await append(pool, a, 0, [{ type: 'A1', data: { n: 1 }, schemaVersion: 2 }], { actor: 'u1' });
    await append(pool, b, 0, [{ type: 'B1', data: { n: 2 } }]);
    await append(pool, a, 1, [{ type: 'A2', data: { n: 3 } }]);
    const all = await readStreams(pool, [a, b, a, `test-${uid()}`]);
    expect([...all.keys()].sort()).toEqual([a, b].sort());
    expect(all.get(a)!.map((e) => e.type)).toEqual(['A1', 'A2']);
    expect(all.get(a)![0]).toEqual(first.events[0]); // the very row append returned: nothing made up
    expect(all.get(a)![0]).toMatchObject({ schemaVersion: 2, metadata: { actor: 'u1' } });
    const upTo = await readStreams(pool, [a, b], { upToPosition: first.events[0]!.globalPosition });
    expect([...upTo.keys()]).toEqual([a]);
    expect(upTo.get(a)!.map((e) => e.type)).toEqual(['A1']);
  });

  it('alertsAfter returns the alerts after a live cursor, in position order', async () => {
    const p = `pat-${uid()}`;
    await appendAlertEvent(pool, { data: alertData(p, 'spo2-low', 'raised', 1, 10), position: { partition: 3, offset: 10, k: 1 } });
    await appendAlertEvent(pool, { data: alertData(p, 'hr-high', 'raised', 1, 10), position: { partition: 3, offset: 10, k: 2 } });
    await appendAlertEvent(pool, { data: alertData(p, 'spo2-low', 'cleared', 2, 20), position: { partition: 3, offset: 20, k: 1 } });
    const at = (cursor: [number, number, number][]) =>
      alertsAfter(pool, [p], new Map(cursor.map(([part, offset, k]) => [part, { offset, k }])));
    expect((await at([])).map((e) => [e.offset, e.k, e.type, e.data.rule])).toEqual([
      [10, 1, 'VitalsAlertRaised', 'spo2-low'],
      [10, 2, 'VitalsAlertRaised', 'hr-high'],
      [20, 1, 'VitalsAlertCleared', 'spo2-low'],
    ]);
    expect((await at([[3, 10, 1]])).map((e) => [e.offset, e.k])).toEqual([
      [10, 2],
      [20, 1],
    ]);
    expect((await at([[3, 20, 1]])).map((e) => [e.offset, e.k])).toEqual([]);
    expect((await at([[4, 99, 0]])).map((e) => [e.offset, e.k])).toEqual([
      [10, 1],
      [10, 2],
      [20, 1],
    ]); // other partition: all
    expect(await activeAlerts(pool, [p])).toEqual(new Map([[p, ['hr-high']]]));
  });
});

describe("active conditions (the ingest's restore, the triage board)", () => {
  const by = { user: 'nurse-1', client_id: 'card' };

  it('an alarm acknowledged (or escalated) while its condition holds stays active; its clear ends it', async () => {
    const p = `pat-${uid()}`;
    const raise = alertData(p, 'spo2-low', 'raised', 1, 30);
    await appendAlertEvent(pool, { data: raise, position: { partition: 3, offset: 30, k: 1 } });
    await appendAlertEvent(pool, { data: alertData(p, 'hr-high', 'raised', 2, 31), position: { partition: 3, offset: 31, k: 1 } });
    // the lifecycle's events, appended by hand as the gateway and the projector do: they name the rule too
    await append(pool, alertStream(p), ANY, [
      {
        type: ALARM_EVENTS.acknowledged,
        data: { alert_id: raise.alert_id, patient_id: p, rule: 'spo2-low', by, at: '2026-01-01T00:00:05.000Z' },
      },
      {
        type: ALARM_EVENTS.escalated,
        data: { alert_id: 'x', patient_id: p, rule: 'hr-high', to: 'charge nurse', at: '2026-01-01T00:01:05.000Z', priority: 'high' },
      },
    ]);
    // what a read of the latest event per rule, whatever its type, would have restored: neither condition
    expect((await readLatestPerKey(pool, [alertStream(p)], 'rule')).map((e) => e.type)).toEqual([
      ALARM_EVENTS.escalated,
      ALARM_EVENTS.acknowledged,
    ]);
    expect(await activeAlerts(pool, [p])).toEqual(new Map([[p, ['hr-high', 'spo2-low']]]));

    await appendAlertEvent(pool, { data: alertData(p, 'spo2-low', 'cleared', 3, 40), position: { partition: 3, offset: 40, k: 1 } });
    await append(pool, alertStream(p), ANY, [
      { type: ALARM_EVENTS.acknowledged, data: { alert_id: 'y', patient_id: p, rule: 'hr-high', by, at: '2026-01-01T00:02:00.000Z' } },
    ]);
    expect(await activeAlerts(pool, [p])).toEqual(new Map([[p, ['hr-high']]]));
  });
});

describe('migration 0015 (alert streams renamed)', () => {
  it('moves alert events from the old names, keeps a colliding patient in place, and leaves events append-only', async () => {
    const sql = (await readMigrations()).find((m) => m.version === 15)!.sql;
    const [p, q] = [`pat-${uid()}`, `pat-${uid()}`];
    // Run it again on old-style rows inside a transaction that is rolled back: the database keeps
    // its state, and no other test sees the rows. The lock first, so the migration's ALTER TABLE
    // does not wait behind (or deadlock with) a concurrent writer.
    const client: PoolClient = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      const old = await append(
        client,
        oldAlertStream(p),
        0,
        [
          { type: 'VitalsAlertRaised', data: alertData(p, 'spo2-low', 'raised', 1, 5) as never },
          { type: 'VitalsAlertCleared', data: alertData(p, 'spo2-low', 'cleared', 2, 6) as never },
        ],
        { kafka_partition: 3, kafka_offset: 5, alert_seq: 1 },
      );
      // the collision the old names allowed: patient `alerts-<q>` and q's alerts in ONE stream
      await register(client, `alerts-${q}`, oldAlertStream(q));
      await append(client, oldAlertStream(q), ANY, [{ type: 'VitalsAlertRaised', data: alertData(q, 'hr-high', 'raised', 1, 7) as never }]);

      await client.query(sql);

      expect(await readStream(client, oldAlertStream(p))).toEqual([]);
      const moved = await readStream(client, alertStream(p));
      expect(moved.map((e) => [e.eventId, e.globalPosition, e.streamVersion, e.type])).toEqual(
        old.events.map((e) => [e.eventId, e.globalPosition, e.streamVersion, e.type]),
      );
      expect(moved[0]!.metadata).toMatchObject({ kafka_partition: 3, kafka_offset: 5, alert_seq: 1 });
      expect((await readStream(client, patientStream(`alerts-${q}`))).map((e) => e.type)).toEqual(['PatientRegistered']);
      expect((await readStream(client, alertStream(q))).map((e) => [e.type, e.streamVersion])).toEqual([['VitalsAlertRaised', 2]]);
      expect(await activeAlerts(client, [p, q, `alerts-${q}`])).toEqual(new Map([[q, ['hr-high']]]));

      await client.query('SAVEPOINT append_only');
      await expect(client.query('UPDATE events SET type = type WHERE stream_id = $1', [alertStream(p)])).rejects.toThrow(/append-only/);
      await client.query('ROLLBACK TO SAVEPOINT append_only');
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
    expect(await readStream(pool, alertStream(p))).toEqual([]); // rolled back: nothing left behind
  });
});
