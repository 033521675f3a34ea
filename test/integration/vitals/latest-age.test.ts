/**
 * Every latest vital value says its time, and to an agent its age and whether it is stale: the MCP
 * tool get_latest_vitals carries each observation's effective_at, age_s, stale and stale_after_s
 * (vitals service `withFreshness`, on the site's thresholds: VITALIS_ALARMS via config.alarms), and
 * its text says "stale" beside an old value, so an agent never reports it as current. Values are
 * stored through Kafka and a real ingest worker, 16 minutes old.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numeric, startRig, uid, waitFor, type LiveRig } from '../live/support';
import { connect, tokenFor } from '../mcp/support';

let rig: LiveRig;
let token: string;

// the site keeps heart rate current for an hour; SpO2 and temperature keep the defaults (10 s, 30 min)
const SITE_ALARMS = { stale_after_s: { '8867-4': 3_600 } };

beforeAll(async () => {
  rig = await startRig('vitals-latest-age', { VITALIS_ALARMS: JSON.stringify(SITE_ALARMS) });
  token = (await tokenFor(rig.gw.url, ['read:vitals'], 'latest-age-test')).token;
});
afterAll(async () => {
  await rig?.close();
});

describe('get_latest_vitals: each value with its time, age and stale mark', () => {
  it("judges 16-minute-old values on the site's thresholds and says so in its text", async () => {
    const patient = `pat-age-${uid()}`;
    const at = new Date(Date.now() - 16 * 60_000);
    await rig.send(patient, [
      numeric(patient, `${patient}-d`, 1, at, { value: 137 }),
      numeric(patient, `${patient}-d`, 2, at, { code: '59408-5', value: 85, unit: '%' }),
      numeric(patient, `${patient}-d`, 3, at, { code: '8310-5', value: 37, unit: 'Cel' }),
    ]);
    await waitFor(
      async () =>
        (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n as number,
      (n) => n >= 3,
      45_000,
      'the stored values',
    );
    const c = await connect(rig.gw.url, token);
    try {
      const r = await c.client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: patient } });
      expect(r.isError).toBeFalsy();
      const byCode = Object.fromEntries(
        (
          r.structuredContent as {
            observations: Array<{ code: string; effective_at: string; age_s: number; stale: boolean; stale_after_s: number }>;
          }
        ).observations.map((o) => [o.code, o]),
      );
      for (const o of Object.values(byCode)) {
        expect(Date.parse(o.effective_at)).toBe(at.getTime());
        expect(o.age_s).toBeGreaterThanOrEqual(16 * 60);
      }
      expect(byCode['8867-4']).toMatchObject({ stale: false, stale_after_s: 3_600 }); // the site's threshold
      expect(byCode['59408-5']).toMatchObject({ stale: true, stale_after_s: 10 });
      expect(byCode['8310-5']).toMatchObject({ stale: false, stale_after_s: 1_800 });
      const text = (r.content as Array<{ text: string }>)[0]!.text;
      expect(text).toMatch(/Oxygen saturation[^,]* 85 % \(\d+ s old, stale\)/);
      expect(text).toMatch(/Heart rate 137 \/min \(\d+ s old\)/);
    } finally {
      await c.close();
    }
  });
});
