/**
 * Escalation of unacknowledged alarms (apps/projector/src/alarm-escalation.ts) over a real database
 * and Redis, with the run's clock given (no waiting): not before the due time; once when due (the
 * event, the read model, the live notice, the counter); not after an acknowledgement, whether the
 * read model has seen it or not; an acknowledgement committed between the escalator's fold and its
 * append wins (the append conflicts); a latched alarm nobody acknowledged escalates; one escalator
 * at a time (the lock tried).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALARM_SETTINGS } from '@vitalis/clinical';
import type { Pool, PoolClient } from '@vitalis/db';
import { readStream } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { createAlarmMetrics, createRegistry } from '@vitalis/metrics';
import { createRedis, type Redis } from '@vitalis/redis';
import { escalateDueAlarms } from '../../../apps/projector/src/alarm-escalation';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import { testEnv } from '../../helpers/env';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { parseScrape, total } from '../../helpers/prometheus';
import { acknowledgedEvent, alarmRows, appendAlarm, clearedEvent, iso, listenForNotices, newPatient, raisedEvent, until } from './support';

let db: PrivateDatabase;
let redis: Redis;
let listener: Awaited<ReturnType<typeof listenForNotices>>;
beforeAll(async () => {
  db = await privateDatabase('alarms_esc', 6);
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-alarm-escalation' });
  listener = await listenForNotices();
});
afterAll(async () => {
  await listener?.close();
  redis?.disconnect();
  await db?.drop();
});

const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
const settings = DEFAULT_ALARM_SETTINGS; // high: 60 s, medium: 180 s, to the charge nurse
const project = () => catchUp(db.pool, alarmsProjection);
const types = async (patient: string) => (await readStream(db.pool, alertStream(patient))).map((e) => e.type);

describe('alarm escalation', () => {
  it('escalates an unacknowledged alarm once when due, not before; the row, the live notice and the counter show it', async () => {
    const registry = createRegistry('projector');
    const metrics = createAlarmMetrics(registry, async () => ({ raisedLastHour: {}, beds: 0, disconnectActive: 0 }));
    const p = newPatient();
    const r = raisedEvent(p, 'hr-high', { at: iso(T0) }); // high: due at T0 + 60 s
    await appendAlarm(db.pool, p, r.event);
    await project();
    const run = (now: number) =>
      escalateDueAlarms(db.pool, redis, settings, { now: new Date(now), onEscalated: (priority) => metrics.escalated(priority) });

    expect((await run(T0 + 59_000)).escalated).not.toContain(r.id);
    expect(await types(p)).toEqual(['VitalsAlertRaised']);

    expect((await run(T0 + 61_000)).escalated).toContain(r.id);
    expect(await types(p)).toEqual(['VitalsAlertRaised', 'VitalsAlertEscalated']);
    expect((await readStream(db.pool, alertStream(p)))[1]!.data).toEqual({
      alert_id: r.id,
      patient_id: p,
      rule: 'hr-high',
      to: 'charge nurse',
      at: iso(T0 + 61_000),
      priority: 'high',
    });
    await until(() => listener.of(p).length > 0, 'the escalation notice');
    expect(listener.of(p)).toEqual([
      expect.objectContaining({
        kind: 'alarm',
        event: 'VitalsAlertEscalated',
        data: expect.objectContaining({ alert_id: r.id, to: 'charge nurse' }),
      }),
    ]);

    // the read model shows it, and it is not escalated again (whether the projection has caught up or not)
    expect((await run(T0 + 62_000)).escalated).not.toContain(r.id);
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({ state: 'raised', escalated_at: new Date(T0 + 61_000), escalated_to: 'charge nurse' }),
    ]);
    expect((await run(T0 + 600_000)).escalated).not.toContain(r.id);
    expect(await types(p)).toEqual(['VitalsAlertRaised', 'VitalsAlertEscalated']);

    const samples = parseScrape(await registry.metrics());
    expect(total(samples, 'vitalis_alarms_escalated_total', { priority: 'high' })).toBe(1);
    expect(total(samples, 'vitalis_alarms_escalated_total', { priority: 'medium' })).toBe(0);
  });

  it('does not escalate an acknowledged alarm, whether the read model has seen the acknowledgement or not', async () => {
    const [seen, unseen] = [newPatient(), newPatient()];
    const a = raisedEvent(seen, 'hr-high', { at: iso(T0) });
    const b = raisedEvent(unseen, 'hr-high', { at: iso(T0) });
    await appendAlarm(db.pool, seen, a.event);
    await appendAlarm(db.pool, unseen, b.event);
    await project();
    await appendAlarm(db.pool, seen, acknowledgedEvent(seen, 'hr-high', a.id, iso(T0 + 30_000)));
    await project();
    await appendAlarm(db.pool, unseen, acknowledgedEvent(unseen, 'hr-high', b.id, iso(T0 + 30_000))); // the row still says raised
    const run = await escalateDueAlarms(db.pool, redis, settings, { now: new Date(T0 + 120_000) });
    expect(run.escalated).not.toContain(a.id);
    expect(run.escalated).not.toContain(b.id);
    expect(await types(seen)).toEqual(['VitalsAlertRaised', 'VitalsAlertAcknowledged']);
    expect(await types(unseen)).toEqual(['VitalsAlertRaised', 'VitalsAlertAcknowledged']);
  });

  it("an acknowledgement committed between the escalator's fold and its append wins", async () => {
    const p = newPatient();
    const r = raisedEvent(p, 'hr-high', { at: iso(T0) });
    await appendAlarm(db.pool, p, r.event);
    await project();
    // the connection the escalator runs on: the acknowledgement is appended (elsewhere) just before its first write
    let acked = false;
    const racingClient = (client: PoolClient) =>
      new Proxy(client, {
        get(target, prop, receiver) {
          if (prop !== 'query') return Reflect.get(target, prop, receiver);
          return async (sql: string, params?: unknown[]) => {
            if (!acked && typeof sql === 'string' && sql.includes('INSERT INTO events')) {
              acked = true;
              await appendAlarm(db.pool, p, acknowledgedEvent(p, 'hr-high', r.id, iso(T0 + 61_500)));
            }
            return target.query(sql, params);
          };
        },
      });
    const racing = { connect: async () => racingClient(await db.pool.connect()) } as unknown as Pool;
    const run = await escalateDueAlarms(racing, redis, settings, { now: new Date(T0 + 61_000) });
    expect(acked).toBe(true);
    expect(run.escalated).not.toContain(r.id);
    expect(await types(p)).toEqual(['VitalsAlertRaised', 'VitalsAlertAcknowledged']);
    // and the next run decides on the acknowledged alarm: nothing
    expect((await escalateDueAlarms(db.pool, redis, settings, { now: new Date(T0 + 62_000) })).escalated).not.toContain(r.id);
    expect(await types(p)).toEqual(['VitalsAlertRaised', 'VitalsAlertAcknowledged']);
  });

  it('escalates a latched alarm nobody acknowledged; never one without a due time', async () => {
    const p = newPatient();
    const latched = raisedEvent(p, 'spo2-low', { at: iso(T0) }); // high, latching
    const never = raisedEvent(p, 'temp-high', { at: iso(T0) }); // low: due_at null
    await appendAlarm(db.pool, p, latched.event, clearedEvent(p, 'spo2-low', iso(T0 + 10_000)), never.event);
    await project();
    expect((await alarmRows(db.pool, p)).map((x) => [x.rule, x.state, x.due_at]).sort()).toEqual([
      ['spo2-low', 'latched', new Date(T0 + 60_000)],
      ['temp-high', 'raised', null],
    ]);
    const run = await escalateDueAlarms(db.pool, redis, settings, { now: new Date(T0 + 3_600_000) });
    expect(run.escalated).toContain(latched.id);
    expect(run.escalated).not.toContain(never.id);
  });

  it('one escalator at a time: a run finding the lock held skips', async () => {
    const holder = await db.pool.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('vitalis-alarm-escalator'))");
      expect(await escalateDueAlarms(db.pool, redis, settings, { now: new Date(T0 + 3_600_000) })).toEqual({
        escalated: [],
        skipped: true,
      });
    } finally {
      await holder.query("SELECT pg_advisory_unlock(hashtext('vitalis-alarm-escalator'))");
      holder.release();
    }
  });
});
