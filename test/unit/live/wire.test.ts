/**
 * The fan-out message's bytes (`encodeBatch`) are byte for byte `JSON.stringify` of the batch in UTF-8, which
 * the gateways parse: a numeric observation's event from a template, ECG samples from their 0.1 µV
 * steps, everything else by JSON.stringify. And `eventJson` writes an array of numbers as JSON does.
 */
import { describe, expect, it, vi } from 'vitest';
import { encodeBatch, eventJson, storedObservation, type LiveBatch, type LiveEvent } from '@vitalis/live';
import { ECG_LEAD_II, waveformSteps, type VitalsObservation } from '@vitalis/schemas';

const at = '2026-11-30T02:00:00.123Z';
const numeric = (patient: string, seq: number, code: string, value: number, unit: string): LiveEvent => ({
  kind: 'observation',
  partition: 3,
  offset: seq,
  k: 0,
  patient_id: patient,
  data: storedObservation({
    patient_id: patient,
    device_id: `${patient}-mon`,
    seq,
    effective_at: at,
    code,
    value,
    unit,
  } as VitalsObservation),
});
const ecg = (patient: string, seq: number, samples: number[], origin = 0): LiveEvent => {
  const o = {
    patient_id: patient,
    device_id: `${patient}-mon`,
    seq,
    effective_at: at,
    code: ECG_LEAD_II.code,
    unit: 'mV',
    waveform: { origin, period_ms: 4, samples },
  };
  return {
    kind: 'observation',
    partition: 3,
    offset: seq,
    k: 24,
    patient_id: patient,
    data: storedObservation(o as VitalsObservation, waveformSteps(o.waveform)),
  };
};
const alert: LiveEvent = {
  kind: 'alert',
  partition: 3,
  offset: 9,
  k: 1,
  patient_id: 'pat-1',
  type: 'alert.raised' as never,
  data: {
    alert_id: 'a-1',
    rule: 'spo2-low',
    state: 'raised',
    patient_id: 'pat-1',
    severity: 'high',
    priority: 'high',
    message: 'SpO2 85 % < 90 %',
    value: 85,
    due_at: null,
    triggered_by: { partition: 3, offset: 9, device_id: 'pat-1-mon', seq: 9, code: '59408-5', effective_at: at },
    flag: { resourceType: 'Flag', status: 'active' },
  },
};

/** `encodeBatch(b)` writes every event from a template (JSON.stringify is never called) and its bytes are JSON.stringify's. */
function expectEveryEventFromItsTemplate(b: LiveBatch): void {
  const stringify = vi.spyOn(JSON, 'stringify');
  let bytes: Buffer;
  try {
    bytes = encodeBatch(b);
    expect(stringify).not.toHaveBeenCalled();
  } finally {
    stringify.mockRestore();
  }
  expect(bytes.equals(Buffer.from(JSON.stringify(b)))).toBe(true);
}

describe('encodeBatch', () => {
  it('is JSON.stringify of the batch for numerics, ECG chunks (on and off the 0.1 µV grid), alerts and a trace', () => {
    const grid = Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i / 9) * 15_000) / 10_000);
    const batches: LiveBatch[] = [
      { v: 1, partition: 3, first: 1, last: 1, events: [] },
      {
        v: 1,
        partition: 3,
        first: 1,
        last: 9,
        events: [numeric('pat-1', 1, '8867-4', 72, '/min'), ecg('pat-1', 2, grid), alert, ecg('pat-2', 3, [])],
      },
      {
        v: 1,
        partition: 0,
        first: 4,
        last: 5,
        events: [ecg('pat-"samples":[]', 4, [0.1, -0.25, 10], -0.5), numeric('pat-3', 5, '8310-5', 36.6 + 0.1, 'Cel')],
      },
      {
        v: 1,
        partition: 1,
        first: 7,
        last: 7,
        events: [ecg('pat-4', 7, [0.123456, 1e-7])],
        trace: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
    ];
    for (const b of batches) expect(encodeBatch(b).equals(Buffer.from(JSON.stringify(b)))).toBe(true);
  });

  it('writes text beyond ASCII as UTF-8, grows past its first estimate, and leaves each event as it found it', () => {
    const wide = { ...alert, data: { ...alert.data, message: 'Temp 39.5 °C ≥ 39 °C: SpO₂ 91 % — 🫀' } } as LiveEvent;
    const long = Array.from({ length: 2_500 }, (_, i) => -Math.round(Math.cos(i / 7) * 199_999) / 10_000);
    const events = [wide, ...Array.from({ length: 40 }, (_, i) => ecg(`pat-${i}`, i, long)), numeric('pat-é', 99, '8867-4', 61.5, '/min')];
    const before = JSON.stringify(events);
    const b: LiveBatch = { v: 1, partition: 2, first: 0, last: 99, events };
    const bytes = encodeBatch(b);
    expect(bytes.equals(Buffer.from(JSON.stringify(b)))).toBe(true);
    expect(bytes.length).toBeGreaterThan(events.length * 512 + 256); // past the first estimate
    expect(JSON.stringify(events)).toBe(before);
  });
});

describe('encodeBatch: a numeric observation event from its template', () => {
  const withData = (e: LiveEvent, data: Record<string, unknown>): LiveEvent => ({ ...e, data }) as unknown as LiveEvent;
  const plain = numeric('pat-7', 12, '8867-4', 72, '/min');

  it('writes plain numerics without JSON.stringify, byte for byte its text, at the edges of every number', () => {
    const events = [-0, 0, 5e-324, -1.5e-7, 1e21, 123456789.123, -40].map((value, i) => ({
      ...numeric(`pat-${i}`, Number.MAX_SAFE_INTEGER - i, '8867-4', value, '/min'),
      offset: 2 ** 40 + i,
      k: 30,
    }));
    // whole numbers past 10^8 are written as two halves: every width, the last below each power of ten, past 2^31, up to 2^53 - 1
    const wholes = [1e8 - 1, 1e8, 1e8 + 1, 2 ** 31 - 1, 2 ** 31, 1_733_030_000_007, 9_007_199_199_999_999, 2 ** 53 - 2, 2 ** 53, 1e21];
    for (let digits = 9; digits <= 16; digits++) wholes.push(10 ** digits - 1, 10 ** digits, 10 ** digits + 10 ** (digits - 9));
    wholes.forEach((whole, i) => events.push({ ...numeric(`pat-w${i}`, whole, '59408-5', 97, '%'), offset: whole }));
    const b: LiveBatch = { v: 1, partition: 11, first: 0, last: 2 ** 40 + 9, events };
    expectEveryEventFromItsTemplate(b);
  });

  it('leaves to JSON.stringify what the template cannot write as JSON does, with the same bytes', () => {
    const d = plain.data as unknown as Record<string, unknown>;
    const odd: LiveEvent[] = [
      withData(plain, { ...d, device_id: 'mon-"quoted"' }),
      withData(plain, { ...d, device_id: 'mon-\\back' }),
      withData(plain, { ...d, unit: 'line\nbreak' }),
      withData(plain, { ...d, device_id: 'mon-é-🫀' }),
      withData(plain, { ...d, device_id: 'lone-\ud800' }),
      withData(plain, { ...d, value: Number.NaN }),
      withData(plain, { ...d, value: Number.POSITIVE_INFINITY }),
      withData(plain, { ...d, interpretation: 'H' }), // a key the template does not know
      withData(plain, { unit: d.unit, ...d }), // the same keys in another order
      { ...plain, patient_id: 'pat-"' },
      { ...plain, offset: Number.NaN },
    ];
    const b: LiveBatch = { v: 1, partition: 3, first: 0, last: 12, events: [plain, ...odd] };
    expect(encodeBatch(b).equals(Buffer.from(JSON.stringify(b)))).toBe(true);
  });
});

describe('encodeBatch: an ECG chunk event from its template', () => {
  const grid = Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i / 9) * 15_000) / 10_000);
  const withWaveform = (e: LiveEvent, waveform: Record<string, unknown>): LiveEvent =>
    ({ ...e, data: { ...e.data, waveform } }) as unknown as LiveEvent;

  it('writes chunks without JSON.stringify, byte for byte its text, at the edges of their numbers', () => {
    const events = [0, 1, 2 ** 31, 1_733_030_000_007, Number.MAX_SAFE_INTEGER].map((seq, i) => ({
      ...ecg(`pat-${i}`, seq, i === 0 ? [] : grid, [0, -0.5, 0.12345, 3, 10][i]),
      offset: 2 ** 33 + i,
    }));
    events.push(
      withWaveform(events[1] as LiveEvent, { origin: 0, period_ms: 0.0010000000474974513, samples: [20, -20, 0.0001] }),
      withWaveform(events[2] as LiveEvent, { origin: -0.5, period_ms: 1000, samples: [0.5, -0.25] }),
    );
    const b: LiveBatch = { v: 1, partition: 5, first: 0, last: 2 ** 33 + 9, events };
    expectEveryEventFromItsTemplate(b);
  });

  it('leaves to JSON.stringify what the template cannot write as JSON does, with the same bytes', () => {
    const plain = ecg('pat-8', 8, grid);
    const d = plain.data as unknown as Record<string, unknown>;
    const w = d.waveform as Record<string, unknown>;
    const odd: LiveEvent[] = [
      { ...plain, data: { ...d, device_id: 'mon-"q"' } } as unknown as LiveEvent,
      { ...plain, data: { ...d, unit: 'm\nV' } } as unknown as LiveEvent,
      { ...plain, data: { ...d, note: 'x' } } as unknown as LiveEvent, // a key the template does not know
      { ...plain, patient_id: 'pat-\u0001' },
      withWaveform(plain, { period_ms: w.period_ms, origin: w.origin, samples: w.samples }), // another order
      withWaveform(plain, { ...w, lead: 'II' }),
      withWaveform(plain, { ...w, origin: Number.NaN }),
      withWaveform(plain, { ...w, period_ms: Number.POSITIVE_INFINITY }),
      withWaveform(plain, { ...w, samples: [0.1, 0.123456, 1e21] }), // off the grid: JSON's own numbers
    ];
    const b: LiveBatch = { v: 1, partition: 3, first: 0, last: 12, events: [plain, ...odd] };
    expect(encodeBatch(b).equals(Buffer.from(JSON.stringify(b)))).toBe(true);
  });
});

describe('eventJson', () => {
  it('writes an array of numbers as JSON does, ECG samples included', () => {
    for (const a of [[], [0], [-0], [0.1234, -10, 10], [0.123456], [Number.NaN, 1]]) expect(eventJson(a)).toBe(JSON.stringify(a));
    const e = ecg('pat-5', 1, [1.5, -1.5, 0.0001]);
    expect(JSON.parse(eventJson(e.data))).toEqual(JSON.parse(JSON.stringify(e.data)));
  });
});
