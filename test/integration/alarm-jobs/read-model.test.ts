/**
 * The alarms read model (rm_alarms, projection `alarms`) over a real database: the lifecycle rows
 * (raise → acknowledge → clear is resolved; a latching alarm is latched after its clear until
 * acknowledged), an old raise with only a severity, and the incremental fold (each batch folded
 * onto the rows read back) equal to the records fold of the whole stream whatever the batch size,
 * on a stream with the awkward cases (a rule raised twice without a clear, a clear with nothing
 * open, an alarm raised again under the same id, a latched alarm whose condition comes back twice
 * before it is acknowledged). An alarm event missing the fields the fold reads
 * is passed over. A rebuild from zero gives the same rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { ALARM_EVENTS, foldAlarms } from '@vitalis/records';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { catchUp, rebuild } from '../../../apps/projector/src/projections/runner';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { acknowledgedEvent, alarmRows, appendAlarm, clearedEvent, iso, newPatient, nurse, raisedEvent } from './support';

let db: PrivateDatabase;
beforeAll(async () => {
  db = await privateDatabase('alarms_rm', 4);
});
afterAll(() => db?.drop());

const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const project = () => catchUp(db.pool, alarmsProjection);

describe('the alarms read model', () => {
  it('raise → acknowledge → clear: raised, acknowledged (who, when), then resolved', async () => {
    const p = newPatient();
    const r = raisedEvent(p, 'rr-high', { at: iso(T0) }); // medium, not latching
    await appendAlarm(db.pool, p, r.event);
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({
        alarm_id: r.id,
        rule: 'rr-high',
        kind: 'physiological',
        priority: 'medium',
        latching: false,
        state: 'raised',
        device_id: `mon-${p}`,
        raised_at: new Date(T0),
        due_at: new Date(T0 + 180_000),
        condition_ended_at: null,
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: null,
      }),
    ]);
    await appendAlarm(db.pool, p, acknowledgedEvent(p, 'rr-high', r.id, iso(T0 + 20_000)));
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({ state: 'acknowledged', acknowledged_at: new Date(T0 + 20_000), acknowledged_by: nurse, resolved_at: null }),
    ]);
    await appendAlarm(db.pool, p, clearedEvent(p, 'rr-high', iso(T0 + 60_000)));
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({
        state: 'resolved',
        condition_ended_at: new Date(T0 + 60_000),
        resolved_at: new Date(T0 + 60_000),
        acknowledged_by: nurse,
      }),
    ]);
  });

  it('a latching alarm stays latched after its condition ends, until acknowledged', async () => {
    const p = newPatient();
    const r = raisedEvent(p, 'spo2-low', { at: iso(T0) }); // high, latching
    await appendAlarm(db.pool, p, r.event, clearedEvent(p, 'spo2-low', iso(T0 + 30_000)));
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({
        priority: 'high',
        latching: true,
        state: 'latched',
        condition_ended_at: new Date(T0 + 30_000),
        resolved_at: null,
      }),
    ]);
    await appendAlarm(db.pool, p, acknowledgedEvent(p, 'spo2-low', r.id, iso(T0 + 90_000)));
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({ state: 'resolved', acknowledged_at: new Date(T0 + 90_000), resolved_at: new Date(T0 + 90_000) }),
    ]);
  });

  it('an old raise carrying only a severity: its priority, physiological, not latching, never escalating', async () => {
    const p = newPatient();
    await appendAlarm(db.pool, p, raisedEvent(p, 'hr-high', { at: iso(T0), severityOnly: true }).event);
    await project();
    expect(await alarmRows(db.pool, p)).toEqual([
      expect.objectContaining({ priority: 'high', kind: 'physiological', latching: false, state: 'raised', due_at: null }),
    ]);
  });

  it('an alarm event without the fields the fold reads changes nothing and does not stop the projection', async () => {
    const p = newPatient();
    const r = raisedEvent(p, 'hr-high', { at: iso(T0) });
    await appendAlarm(
      db.pool,
      p,
      { type: ALARM_EVENTS.raised, data: { rule: 'hr-high' } },
      { type: ALARM_EVENTS.cleared, data: { rule: 'hr-high' } },
      r.event,
    );
    await project();
    expect((await alarmRows(db.pool, p)).map((x) => [x.alarm_id, x.state])).toEqual([[r.id, 'raised']]);
  });

  it('folding each batch onto the rows read back gives the records fold of the whole stream, at any batch size', async () => {
    const patients = [newPatient(), newPatient(), newPatient()];
    for (const p of patients) {
      const a = raisedEvent(p, 'hr-high', { at: iso(T0) });
      const b = raisedEvent(p, 'hr-high', { at: iso(T0 + 10_000) }); // raised again without a clear: `a` is left open, `b` is the rule's open alarm
      const c = raisedEvent(p, 'rr-high', { at: iso(T0 + 12_000) });
      await appendAlarm(db.pool, p, a.event, b.event);
      await appendAlarm(db.pool, p, clearedEvent(p, 'hr-high', iso(T0 + 20_000))); // closes b (latching: latched), not a
      await appendAlarm(db.pool, p, clearedEvent(p, 'hr-high', iso(T0 + 21_000))); // nothing open for the rule: no change (a stays raised)
      await appendAlarm(db.pool, p, c.event, acknowledgedEvent(p, 'hr-high', a.id, iso(T0 + 25_000)));
      await appendAlarm(db.pool, p, {
        type: ALARM_EVENTS.escalated,
        data: { alert_id: c.id, patient_id: p, rule: 'rr-high', to: 'charge nurse', at: iso(T0 + 200_000), priority: 'medium' },
      });
      await appendAlarm(db.pool, p, clearedEvent(p, 'rr-high', iso(T0 + 210_000)));
      await appendAlarm(db.pool, p, raisedEvent(p, 'rr-high', { id: c.id, at: iso(T0 + 300_000) }).event); // c raised again under its id: a fresh alarm
      await appendAlarm(
        db.pool,
        p,
        clearedEvent(p, 'hr-high', iso(T0 + 301_000)),
        acknowledgedEvent(p, 'hr-high', 'no-such-alarm', iso(T0 + 302_000)),
      );
      // b is latched: its condition comes back (b raised again), ends (latched), comes back (again b), is acknowledged, ends (resolved)
      await appendAlarm(db.pool, p, raisedEvent(p, 'hr-high', { at: iso(T0 + 400_000) }).event);
      await appendAlarm(
        db.pool,
        p,
        clearedEvent(p, 'hr-high', iso(T0 + 410_000)),
        raisedEvent(p, 'hr-high', { at: iso(T0 + 420_000) }).event,
      );
      await appendAlarm(
        db.pool,
        p,
        acknowledgedEvent(p, 'hr-high', b.id, iso(T0 + 430_000)),
        clearedEvent(p, 'hr-high', iso(T0 + 440_000)),
      );
      const f = raisedEvent(p, 'hr-high', { at: iso(T0 + 450_000) }); // b resolved: a new alarm
      await appendAlarm(db.pool, p, f.event);
    }
    // the same events projected in batches of 1, 2, 3 and 500 events, each into a table of its own
    for (const batch of [1, 2, 3, 500]) {
      const table = `rm_alarms_b${batch}`;
      await db.pool.query(`CREATE TABLE ${table} (LIKE rm_alarms INCLUDING ALL)`);
      await catchUp(db.pool, alarmsProjection, { checkpoint: `alarms:b${batch}`, table, batch });
      for (const p of patients) {
        const folded = foldAlarms(await readStream(db.pool, alertStream(p)));
        const { rows } = await db.pool.query(`SELECT * FROM ${table} WHERE patient_id = $1 ORDER BY alarm_id`, [p]);
        const expected = [...folded.alarms.values()]
          .sort((x, y) => (x.id < y.id ? -1 : 1))
          .map((x) => ({
            alarm_id: x.id,
            rule: x.rule,
            state: x.state,
            priority: x.priority,
            kind: x.kind,
            latching: x.latching,
            version: x.version,
            message: x.message,
            raised_at: x.raisedAt,
            condition_since: x.conditionSince,
            recurrences: x.recurrences,
            due_at: x.dueAt,
            condition_ended_at: x.conditionEndedAt,
            acknowledged_at: x.acknowledgedAt,
            acknowledged_by: x.acknowledgedBy,
            escalated_at: x.escalatedAt,
            escalated_to: x.escalatedTo,
            resolved_at: x.resolvedAt,
          }));
        const isoOr = (d: Date | null) => (d === null ? null : d.toISOString());
        expect(
          rows.map((r) => ({
            alarm_id: r.alarm_id,
            rule: r.rule,
            state: r.state,
            priority: r.priority,
            kind: r.kind,
            latching: r.latching,
            version: r.version,
            message: r.message,
            raised_at: isoOr(r.raised_at),
            condition_since: isoOr(r.condition_since),
            recurrences: r.recurrences,
            due_at: isoOr(r.due_at),
            condition_ended_at: isoOr(r.condition_ended_at),
            acknowledged_at: isoOr(r.acknowledged_at),
            acknowledged_by: r.acknowledged_by,
            escalated_at: isoOr(r.escalated_at),
            escalated_to: r.escalated_to,
            resolved_at: isoOr(r.resolved_at),
          })),
          `batch ${batch}`,
        ).toEqual(expected);
        // a acknowledged (its condition never ended), b resolved after two recurrences, c raised again, f a new alarm
        expect(rows.map((r) => [r.state, r.recurrences]).sort(), `batch ${batch}`).toEqual([
          ['acknowledged', 0],
          ['raised', 0],
          ['raised', 0],
          ['resolved', 2],
        ]);
      }
    }
  });

  it('a rebuild from zero gives the same rows', async () => {
    await project();
    await db.pool.query('CREATE TABLE rm_alarms_before AS TABLE rm_alarms');
    const before = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rm_alarms')).rows[0]!.n;
    expect(before).toBeGreaterThan(5);
    await rebuild(db.pool, alarmsProjection);
    const { rows } = await db.pool.query<{ n: string }>(
      'SELECT (SELECT count(*) FROM (TABLE rm_alarms EXCEPT ALL TABLE rm_alarms_before) a) + (SELECT count(*) FROM (TABLE rm_alarms_before EXCEPT ALL TABLE rm_alarms) b) AS n',
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
