/**
 * The device-disconnect watchdog (apps/projector/src/device-watchdog.ts) over a real database and
 * Redis, in a database of its own (its stall rule reads the newest row of the whole append log).
 * Readings are rows of vitals_observations stored some seconds before the database's now (the
 * watchdog's clock), far from the disconnect delay on either side. It raises nothing while every
 * device is silent (a pipeline stall); once data flows, it raises the silent devices' alarms (one
 * per patient, the longest silent) with the settings' priority, latching and due time, the message
 * and an id derived from patient, device and last reading; never twice, whichever instance runs;
 * clears one when that device's readings arrive again (another device's do not); one watchdog at a
 * time; a latching disconnect alarm (a site's setting) that falls silent again before anyone
 * acknowledged it is the same alarm again and is cleared only by a reading after its return. The
 * alarm series read back from the same database over /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmSettings } from '@vitalis/clinical';
import { readStream } from '@vitalis/eventstore';
import { alertEventId, alertStream, type AlertData } from '@vitalis/live';
import { createAlarmMetrics, createRegistry, startMetricsServer, type MetricsServer } from '@vitalis/metrics';
import { createRedis, type Redis } from '@vitalis/redis';
import { readAlarmFigures } from '../../../apps/projector/src/alarm-metrics';
import { createDeviceWatchdog } from '../../../apps/projector/src/device-watchdog';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import { testEnv } from '../../helpers/env';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { scrape, total } from '../../helpers/prometheus';
import { alarmRows, listenForNotices, newPatient, until } from './support';

let db: PrivateDatabase;
let redis: Redis;
let listener: Awaited<ReturnType<typeof listenForNotices>>;
beforeAll(async () => {
  db = await privateDatabase('alarms_wd', 6);
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-device-watchdog' });
  listener = await listenForNotices();
});
afterAll(async () => {
  await listener?.close();
  redis?.disconnect();
  await db?.drop();
});

// a 60 s disconnect delay: the readings below are 5 s or 300 s old, far from it on both sides
const settings = alarmSettings({ conditions: { 'device-disconnected': { onset_delay_s: 60 } } });
let seq = 1;

/** A reading of `device` taken and stored `ageSeconds` before the database's now; returns its effective time. */
async function reading(patient: string, device: string, ageSeconds: number): Promise<string> {
  const { rows } = await db.pool.query<{ at: Date }>(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, ingested_at, series_id)
     VALUES ($1, $2, $3, '8867-4', now() - make_interval(secs => $4), 72, '/min', 0, $3, now() - make_interval(secs => $4), vitals_series_assign($1, '8867-4'))
     RETURNING effective_at AS at`,
    [patient, device, seq++, ageSeconds],
  );
  return rows[0]!.at.toISOString();
}

const events = async (patient: string) => readStream(db.pool, alertStream(patient));
const project = () => catchUp(db.pool, alarmsProjection);

describe('the device-disconnect watchdog', () => {
  const [p1, p2, p3, p4] = [newPatient(), newPatient(), newPatient(), newPatient()];
  const watchdog = () => createDeviceWatchdog(db.pool, redis, settings);
  const first = { instance: undefined as ReturnType<typeof watchdog> | undefined };
  let lastOfA = '';
  let lastOfC = '';

  it('raises nothing while nothing at all is stored (a pipeline stall, not the devices)', async () => {
    lastOfA = await reading(p1, 'mon-A', 300);
    await reading(p2, 'mon-B', 290);
    lastOfC = await reading(p3, 'mon-C', 400);
    await reading(p3, 'mon-D', 300);
    first.instance = watchdog();
    const run = await first.instance.run();
    expect(run).toMatchObject({ skipped: false, stalled: true, raised: 0, devices: 4, scan: 'full' });
    for (const p of [p1, p2, p3]) expect(await events(p)).toEqual([]);
  });

  it("once data flows, raises each silent device's alarm: one per patient, with the settings, the message and a derived id", async () => {
    await reading(p2, 'mon-B', 0);
    await reading(p4, 'mon-E', 5); // within the delay
    const run = await first.instance!.run();
    expect(run).toMatchObject({ stalled: false, raised: 2, scan: 'slice' });
    expect(await events(p2)).toEqual([]);
    expect(await events(p4)).toEqual([]);

    const [raised] = await events(p1);
    const triggered_by = { device_id: 'mon-A', seq: 0, effective_at: lastOfA };
    const id = alertEventId({ patient_id: p1, rule: 'device-disconnected', state: 'raised', triggered_by } as AlertData);
    expect(raised).toMatchObject({ type: 'VitalsAlertRaised', eventId: id });
    expect(raised!.data).toEqual({
      alert_id: id,
      rule: 'device-disconnected',
      state: 'raised',
      patient_id: p1,
      priority: 'medium',
      kind: 'technical',
      latching: false,
      message: `No data from monitor mon-A since ${lastOfA.slice(11, 19)} UTC`,
      value: expect.any(Number),
      due_at: expect.any(String),
      triggered_by,
    });
    // due 180 s (medium) after the watchdog confirmed the silence, which is at least the delay after the last reading
    expect(Date.parse(raised!.data.due_at as string) - Date.parse(lastOfA)).toBeGreaterThanOrEqual((60 + 180) * 1_000);
    expect(raised!.data.value).toBeGreaterThanOrEqual(300);
    // patient 3: of its two silent monitors, the one silent longest
    expect(
      (await events(p3)).map((e) => [
        e.type,
        (e.data.triggered_by as { device_id: string }).device_id,
        (e.data.triggered_by as { effective_at: string }).effective_at,
      ]),
    ).toEqual([['VitalsAlertRaised', 'mon-C', lastOfC]]);
    await until(() => listener.of(p1).length > 0 && listener.of(p3).length > 0, 'the raise notices');
    expect(listener.of(p1)).toEqual([
      expect.objectContaining({
        kind: 'alarm',
        event: 'VitalsAlertRaised',
        data: expect.objectContaining({ alert_id: id, rule: 'device-disconnected' }),
      }),
    ]);

    await project();
    expect(await alarmRows(db.pool, p1)).toEqual([
      expect.objectContaining({
        alarm_id: id,
        rule: 'device-disconnected',
        kind: 'technical',
        priority: 'medium',
        state: 'raised',
        device_id: 'mon-A',
        raised_at: new Date(lastOfA),
      }),
    ]);
  });

  it('never raises it twice: not the same instance, not another one, before or after the read model has it', async () => {
    await reading(p2, 'mon-B', 0);
    await db.pool.query("DELETE FROM projection_checkpoints WHERE name = 'alarms'"); // the read model behind: no open alarm in it
    await db.pool.query('TRUNCATE rm_alarms');
    expect(await first.instance!.run()).toMatchObject({ raised: 0, scan: 'slice' });
    expect(await watchdog().run()).toMatchObject({ raised: 0, scan: 'full' });
    await project();
    expect(await watchdog().run()).toMatchObject({ raised: 0 });
    expect((await events(p1)).map((e) => e.type)).toEqual(['VitalsAlertRaised']);
    expect((await events(p3)).map((e) => e.type)).toEqual(['VitalsAlertRaised']);
  });

  it("clears the alarm when that device's readings arrive again; another device of the patient does not", async () => {
    const back = await reading(p1, 'mon-A', 0);
    await reading(p3, 'mon-D', 0); // patient 3's alarm is mon-C's
    const run = await first.instance!.run();
    expect(run).toMatchObject({ cleared: 1, raised: 0, scan: 'slice' });
    const all = await events(p1);
    expect(all.map((e) => e.type)).toEqual(['VitalsAlertRaised', 'VitalsAlertCleared']);
    expect(all[1]!.data).toMatchObject({
      alert_id: all[0]!.data.alert_id,
      rule: 'device-disconnected',
      state: 'cleared',
      patient_id: p1,
      triggered_by: { device_id: 'mon-A', effective_at: back },
    });
    expect((await events(p3)).map((e) => e.type)).toEqual(['VitalsAlertRaised']);
    await until(() => listener.of(p1).some((n) => n.event === 'VitalsAlertCleared'), 'the clear notice');
    await project();
    expect(await alarmRows(db.pool, p1)).toEqual([
      expect.objectContaining({ state: 'resolved', condition_ended_at: new Date(back), resolved_at: new Date(back) }),
    ]);
    // and nothing more for it while it sends
    expect(await first.instance!.run()).toMatchObject({ raised: 0, cleared: 0 });
  });

  it('serves the alarm series on /metrics: alarms per monitored bed and hour by priority, disconnect alarms active', async () => {
    await project();
    const registry = createRegistry('projector');
    const wd = first.instance!;
    createAlarmMetrics(registry, () => readAlarmFigures(db.pool, wd.beds()));
    let server: MetricsServer | undefined;
    try {
      server = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
      const { samples } = await scrape(server.url);
      // 4 beds with readings in the last hour; 2 medium alarms raised (patients 1 and 3), 1 still active (patient 3's)
      expect(wd.beds()).toBe(4);
      expect(total(samples, 'vitalis_alarms_per_bed_hour', { priority: 'medium' })).toBe(0.5);
      expect(total(samples, 'vitalis_alarms_per_bed_hour', { priority: 'high' })).toBe(0);
      expect(total(samples, 'vitalis_alarms_per_bed_hour', { priority: 'low' })).toBe(0);
      expect(total(samples, 'vitalis_device_disconnect_alarms_active')).toBe(1);
      // labels: the priority only
      for (const s of samples.filter((x) => x.name.startsWith('vitalis_alarms') || x.name.startsWith('vitalis_device'))) {
        expect(Object.keys(s.labels).filter((k) => k !== 'app')).toEqual(
          s.name === 'vitalis_device_disconnect_alarms_active' ? [] : ['priority'],
        );
      }
    } finally {
      await server?.close();
    }
  });

  it('a latching disconnect alarm silent again before acknowledgement is the same alarm, cleared only by a reading after its return', async () => {
    // a site whose disconnect alarm latches, after 2 s of silence (other patients' devices fall silent too: after the tests that count them)
    const latching = createDeviceWatchdog(
      db.pool,
      redis,
      alarmSettings({ conditions: { 'device-disconnected': { onset_delay_s: 2, latching: true } } }),
    );
    const p5 = newPatient();
    // 2.5 s of silence of mon-E while the ward keeps sending (else it is an all-patients stall, which raises nothing)
    const silence = async () => {
      await new Promise((r) => setTimeout(r, 2_500));
      await reading(p1, 'mon-A', 0);
    };
    await reading(p5, 'mon-E', 0);
    await silence();
    await latching.run();
    await project(); // the watchdog finds open alarms in the read model
    await reading(p5, 'mon-E', 0);
    await latching.run(); // its readings again: the condition ends, nobody acknowledged it
    await project();
    const [latched] = await alarmRows(db.pool, p5);
    expect(latched).toMatchObject({ rule: 'device-disconnected', state: 'latched', recurrences: 0 });
    const back = await reading(p5, 'mon-E', 0);
    await silence();
    await latching.run(); // silent again: the same alarm, raised again
    await project();
    expect(await alarmRows(db.pool, p5)).toEqual([
      expect.objectContaining({
        alarm_id: latched!.alarm_id,
        state: 'raised',
        recurrences: 1,
        condition_since: new Date(back),
        raised_at: latched!.raised_at,
      }),
    ]);
    // the reading it fell silent after does not end it (a clear by the first raise's time would, and the alarm would come and go every run)
    await latching.run();
    await project();
    expect((await events(p5)).map((e) => e.type)).toEqual(['VitalsAlertRaised', 'VitalsAlertCleared', 'VitalsAlertRaised']);
    await reading(p5, 'mon-E', 0);
    await latching.run();
    await project();
    expect(await alarmRows(db.pool, p5)).toEqual([
      expect.objectContaining({ alarm_id: latched!.alarm_id, state: 'latched', recurrences: 1 }),
    ]);
  });

  it('one watchdog at a time: a run finding the lock held skips', async () => {
    const holder = await db.pool.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext('vitalis-device-watchdog'))");
      expect(await watchdog().run()).toMatchObject({ skipped: true, raised: 0, cleared: 0 });
    } finally {
      await holder.query("SELECT pg_advisory_unlock(hashtext('vitalis-device-watchdog'))");
      holder.release();
    }
  });
});
