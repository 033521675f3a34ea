/**
 * Telemetry joins diagnostics (issue 21 item 3): a rhythm-strip order for a monitored patient is
 * fulfilled from the vitals append log. The report's Observations carry the stored ECG chunks of
 * the window as valueSampledData whose data is, byte for byte, the samples the vitals history (and
 * the live stream) deliver, plus the vitals at that time; the same window again is stored once;
 * the order completes; the report is valid FHIR R4; callers without vitals access are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { api, newPatient, orderBody, roleHeaders, uid } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway();
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics', 'read:vitals']);
});
afterAll(() => gw?.close());

/** Stores ECG chunks (exact binary fractions, so the FHIR decimal text equals the stored value) and a heart rate, as the ingest would. */
async function monitor(patient: string, start: Date): Promise<number[][]> {
  const device = `mon-${uid()}`;
  const chunks = [0, 1, 2].map((c) => Array.from({ length: 250 }, (_, i) => ((i + c * 7) % 16) / 8 - 1)); // -1 … 0.875 in steps of 0.125
  for (const [c, samples] of chunks.entries()) {
    await gw.deps.pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, unit, sample_period_ms, samples, kafka_partition, kafka_offset, series_id)
       VALUES ($1, $2, $3, '131330', $4, 'mV', 4, $5, 0, $3, vitals_series_assign($1, '131330'))`,
      [patient, device, c + 1, new Date(start.getTime() + c * 1000), samples],
    );
  }
  await gw.deps.pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, 10, '8867-4', $3, 128, '/min', 0, 10, vitals_series_assign($1, '8867-4'))`,
    [patient, device, new Date(start.getTime() + 500)],
  );
  return chunks;
}

describe('fulfilment from telemetry', () => {
  it('a rhythm strip carries the stored ECG samples byte for byte, with the vitals at that time; stored once; completes the order', async () => {
    const patient = await newPatient(gw);
    const start = new Date(Date.now() - 60_000);
    start.setMilliseconds(0);
    const chunks = await monitor(patient, start);
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '11524-6', { priority: 'urgent' }))).body;
    const window = { from: start.toISOString(), to: new Date(start.getTime() + 3_000).toISOString(), conclusion: 'Sinus rhythm.' };
    const res = await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, doctor, window);
    expect(res.status).toBe(201);
    const report = res.body;
    expect(report).toMatchObject({
      resourceType: 'DiagnosticReport',
      status: 'final',
      conclusion: 'Sinus rhythm.',
      basedOn: [{ reference: `ServiceRequest/${order.id}` }],
    });
    const ecg = report.contained.filter((o: any) => o.valueSampledData);
    expect(ecg).toHaveLength(3);
    // the history API delivers the same rows the live stream did; the report's data is their samples, in order
    const history = await fetch(
      `${gw.url}/api/v1/vitals?patient=${patient}&code=131330&from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`,
      { headers: doctor },
    );
    const stored = ((await history.json()) as { data: { seq: number; waveform: { samples: number[]; period_ms: number } }[] }).data;
    expect(stored.map((o) => o.waveform.samples)).toEqual(chunks);
    expect(ecg.map((o: any) => o.valueSampledData.data)).toEqual(stored.map((o) => o.waveform.samples.join(' ')));
    expect(ecg[0]).toMatchObject({
      status: 'final',
      code: { coding: [{ code: '131330' }] },
      valueSampledData: { period: 4, dimensions: 1, origin: { value: 0, code: 'mV' } },
    });
    const hr = report.contained.find((o: any) => o.valueQuantity);
    expect(hr).toMatchObject({ code: { coding: [{ code: '8867-4' }] }, valueQuantity: { value: 128, code: '/min' } });
    expect(report.result).toHaveLength(4);
    await expectValidFhir(report);
    expect((await call('GET', `/orders/${order.id}`, doctor)).body.status).toBe('completed');

    const again = await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, doctor, window);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(report.id);
  });

  it('refuses a window too long or empty (422), a non-ECG order (409), and a caller without vitals access (403)', async () => {
    const patient = await newPatient(gw);
    const start = new Date(Date.now() - 120_000);
    await monitor(patient, start);
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '34534-8'))).body;
    const long = await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, doctor, {
      from: start.toISOString(),
      to: new Date(start.getTime() + 61_000).toISOString(),
    });
    expect(long.status).toBe(422);
    const empty = await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, doctor, {
      from: new Date(start.getTime() - 30_000).toISOString(),
      to: new Date(start.getTime() - 20_000).toISOString(),
    });
    expect(empty.status).toBe(422);
    const lactate = (await call('POST', '/orders', doctor, orderBody(patient, '2524-7'))).body;
    expect(
      (
        await call('POST', `/orders/${lactate.id}/fulfil-from-telemetry`, doctor, {
          from: start.toISOString(),
          to: new Date(start.getTime() + 2_000).toISOString(),
        })
      ).status,
    ).toBe(409);
    const lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
    expect(
      (
        await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, lab, {
          from: start.toISOString(),
          to: new Date(start.getTime() + 2_000).toISOString(),
        })
      ).status,
    ).toBe(403);
    expect((await call('POST', `/orders/${order.id}/fulfil-from-telemetry`, doctor, { from: 'yesterday', to: 'today' })).status).toBe(400);
  });
});
