/**
 * Projections: a projector process killed mid-stream and restarted misses nothing and applies
 * nothing twice; rebuilding every projection from zero gives the live read model row by row.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { append } from '@vitalis/eventstore';
import { catchUp, catchUpTo, rebuild, rebuildTable, replayIntoShadow } from '../../../apps/projector/src/projections/runner';
import { PROJECTIONS } from '../../../apps/projector/src/projections/definitions';
import { testEnv } from '../../helpers/env';
import { uid } from './support';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 6 });
afterAll(() => pool.end());

const checkpoint = async (name: string) =>
  (await pool.query<{ position: number }>('SELECT position FROM projection_checkpoints WHERE name = $1', [name])).rows[0]?.position ?? 0;

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function startChild(prefix: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'test/integration/records/projector-child.ts', prefix], {
    env: { ...process.env, DATABASE_URL: testEnv.DATABASE_URL },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Rows of `a` missing from `b` plus rows of `b` missing from `a` (whole-row comparison). */
async function rowDiff(a: string, b: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM (TABLE ${a} EXCEPT ALL TABLE ${b}) x) + (SELECT count(*) FROM (TABLE ${b} EXCEPT ALL TABLE ${a}) y) AS n`,
  );
  return Number(rows[0]!.n);
}

describe('projections', () => {
  it('a projector killed (SIGKILL) mid-stream and restarted misses no event and applies none twice', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS kill_test_applied (projection text NOT NULL, global_position bigint NOT NULL)');
    const prefix = `kill${uid()}-`;
    const name = `kill-test-${prefix}`;
    const positions: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await append(
        pool,
        `${prefix}${i}`,
        0,
        Array.from({ length: 20 }, (_, n) => ({ type: 'Tick', data: { n } })),
      );
      positions.push(...r.events.map((e) => e.globalPosition));
    }
    let child = startChild(prefix);
    try {
      await until(async () => (await checkpoint(name)) > positions[100]!, 'first progress');
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      // more events arrive while it is down, so the restart always has work outstanding
      for (let i = 30; i < 40; i++) {
        const r = await append(
          pool,
          `${prefix}${i}`,
          0,
          Array.from({ length: 20 }, (_, n) => ({ type: 'Tick', data: { n } })),
        );
        positions.push(...r.events.map((e) => e.globalPosition));
      }
      child = startChild(prefix);
      await until(async () => (await checkpoint(name)) >= positions[positions.length - 1]!, 'catch-up after restart');
    } finally {
      child.kill('SIGKILL');
    }
    const { rows } = await pool.query<{ global_position: number }>(
      'SELECT global_position FROM kill_test_applied WHERE projection = $1 ORDER BY global_position',
      [prefix],
    );
    expect(rows.map((r) => r.global_position)).toEqual(positions); // each exactly once, none missing
  });

  it('rebuilding every projection from zero equals the live read model, row by row, and swaps it in', async () => {
    // some triage traffic next to the patients/slots other tests wrote
    const p = `pat-${uid()}`;
    await append(pool, `triage-${p}`, 0, [
      { type: 'PatientArrived', data: { patientId: p, esi: 3, complaint: 'chest pain' } },
      { type: 'TriageLevelSet', data: { esi: 2 } },
    ]);
    const gone = `pat-${uid()}`;
    // and an alarm (projection `alarms`), raised and acknowledged
    await append(pool, `patientAlerts-${p}`, 0, [
      {
        type: 'VitalsAlertRaised',
        data: {
          alert_id: `${p}-a1`,
          rule: 'spo2-low',
          state: 'raised',
          patient_id: p,
          priority: 'high',
          kind: 'physiological',
          latching: true,
          message: 'SpO2 low: 85 %',
          value: 85,
          due_at: null,
          triggered_by: { device_id: `${p}-ox`, effective_at: '2026-01-01T00:00:00.000Z' },
        },
      },
      {
        type: 'VitalsAlertAcknowledged',
        data: { alert_id: `${p}-a1`, patient_id: p, rule: 'spo2-low', by: { user: 'u1', client_id: 'c1' }, at: '2026-01-01T00:00:10.000Z' },
      },
    ]);
    const last = await append(pool, `triage-${gone}`, 0, [
      { type: 'PatientArrived', data: { patientId: gone, esi: 4, complaint: 'sprain' } },
      { type: 'PatientDischarged', data: {} },
    ]);
    const lastPosition = last.events[last.events.length - 1]!.globalPosition;
    for (const projection of PROJECTIONS) {
      // past our events: a transaction open elsewhere (parallel test files) holds the gap-safe horizon back
      await catchUpTo(pool, projection, lastPosition);
      const shadow = await replayIntoShadow(pool, projection);
      // Bring both to the same position (other test files may be appending meanwhile).
      let live = await checkpoint(projection.name);
      let replayed = shadow.position;
      while (live !== replayed) {
        live = (await catchUp(pool, projection)).position;
        replayed = (await catchUp(pool, projection, { checkpoint: `${projection.name}:rebuild`, table: rebuildTable(projection) }))
          .position;
      }
      expect(await rowDiff(projection.table, rebuildTable(projection))).toBe(0);
      const before = (await pool.query(`SELECT count(*)::int AS n FROM ${projection.table}`)).rows[0].n as number;
      const rebuilt = await rebuild(pool, projection);
      expect(rebuilt.position).toBeGreaterThanOrEqual(shadow.position);
      expect(await checkpoint(projection.name)).toBe(rebuilt.position);
      const after = (await pool.query(`SELECT count(*)::int AS n FROM ${projection.table}`)).rows[0].n as number;
      expect(after).toBeGreaterThanOrEqual(before);
      expect(before).toBeGreaterThan(0);
    }
    const board = await pool.query('SELECT patient_id, esi, complaint FROM rm_triage WHERE patient_id = ANY($1)', [[p, gone]]);
    expect(board.rows).toEqual([{ patient_id: p, esi: 2, complaint: 'chest pain' }]);
  });
});
