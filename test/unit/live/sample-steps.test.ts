/**
 * ECG bytes in = bytes out, for every sample of the ±10 mV grid (0.1 µV steps: 200,001 values), on
 * every path a stored chunk leaves by. A device sends a chunk's samples as JSON numbers (decimal mV,
 * a single observation or a v1 frame) or as whole steps (a v2 frame, ADR 0029: every step of
 * ±20 mV); the ingest decodes the record (`decodeRecord`, which derives the steps once) and stores
 * them as `sample_steps` (32-bit steps, migration 0036) through its binary COPY tuple (and the
 * unnest write's hex literal); then:
 *  - REST and history: `observationFromRow` of the stored bytes, serialised as JSON;
 *  - FHIR: `toFhirObservation`'s valueSampledData.data (space-separated);
 *  - bulk export: `ndjsonOf` of the line PostgreSQL's COPY TO prints for the row;
 *  - live: the ingest publishes `storedObservation` of the incoming chunk, and a replay rebuilds the
 *    row: both serialise (`eventJson`) to the same bytes.
 * Each sample's text out is its text in. PostgreSQL's side (the same bytes in, hex out) is
 * checked against a running server in test/integration/live/stored-form.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeSampleSteps,
  encodeSampleSteps,
  eventJson,
  foldedSamples,
  observationFromRow,
  sampleStepsLiteral,
  SAMPLE_STEPS_PER_MV,
  storedInstant,
  storedObservation,
} from '@vitalis/live';
import {
  decodeRecord,
  ECG_LEAD_II,
  FRAME_ENVELOPE_V2,
  MAX_SAMPLE_STEPS,
  toFhirObservation,
  type VitalsObservation,
} from '@vitalis/schemas';
import { copyTuple, toRow } from '../../../apps/ingest/src/store-rows';
import { ndjsonOf } from '@vitalis/export';

const CHUNK = 250;
const LIMIT = 10 * SAMPLE_STEPS_PER_MV; // ±10 mV in 0.1 µV steps

/** The grid's chunks, as a device sends them (JSON text) and as the gateway parses them. */
function* gridChunks(): Generator<{ text: string[]; samples: number[] }> {
  for (let from = -LIMIT; from <= LIMIT; from += CHUNK) {
    const text: string[] = [];
    for (let k = from; k < from + CHUNK && k <= LIMIT; k++) text.push(String(k / SAMPLE_STEPS_PER_MV));
    yield { text, samples: JSON.parse(`[${text.join(',')}]`) as number[] };
  }
}

const chunk = (samples: number[], seq: number, origin = 0): VitalsObservation => ({
  patient_id: 'pat-grid',
  device_id: 'mon-grid',
  seq,
  code: ECG_LEAD_II.code,
  unit: ECG_LEAD_II.unit,
  effective_at: '2026-11-30T01:02:03.456Z',
  waveform: { origin, period_ms: 4, samples },
});

/** The fields of one binary COPY tuple (a 16-bit field count, then each field's 32-bit length, -1 for NULL, and its bytes). */
function tupleFields(tuple: Buffer): (Buffer | null)[] {
  const fields: (Buffer | null)[] = [];
  let at = 2;
  for (let i = 0; i < tuple.readInt16BE(0); i++) {
    const n = tuple.readInt32BE(at);
    fields.push(n < 0 ? null : tuple.subarray(at + 4, at + 4 + n));
    at += 4 + Math.max(n, 0);
  }
  expect(at).toBe(tuple.length);
  return fields;
}
/** The `sample_steps` field (the 9th) of the ingest's COPY tuple for a row. */
const storedSteps = (row: Parameters<typeof copyTuple>[0]): Buffer => tupleFields(copyTuple(row))[8]!;

/** The line PostgreSQL's COPY TO prints for the export's query (observation-lines.ts exportCopySql: encode(sample_steps, 'hex')). */
const exportLine = (o: VitalsObservation, stored: Buffer) =>
  ['pat-grid', o.device_id, o.seq, o.code, '2026-11-30T01:02:03.456000Z', '\\N', o.unit, '4', '\\N', stored.toString('hex')].join('\t');

describe('ECG sample steps: bytes in = bytes out on every path', () => {
  it('every sample of the ±10 mV grid', () => {
    let seq = 0;
    let seen = 0;
    for (const { text, samples } of gridChunks()) {
      const sent = JSON.stringify(chunk([], ++seq)).replace('"samples":[]', `"samples":[${text.join(',')}]`);
      const decoded = decodeRecord(sent);
      if (!decoded.ok) throw new Error(decoded.reason);
      const [{ observation: o, steps }] = decoded.observations as [(typeof decoded.observations)[number]];
      expect(o).toEqual(chunk(samples, seq));
      const row = toRow(o, 0, String(seq), 0, steps);
      const stored = storedSteps(row);
      expect(stored.length).toBe(samples.length * 4);
      // the unnest write's literal is the same bytes (a ::bytea cast of hex text)
      expect(sampleStepsLiteral(row.steps!)).toBe(`\\x${stored.toString('hex')}`);
      // REST and history
      const read = observationFromRow(o.patient_id, { ...rowColumns(o), samples: null, sample_steps: stored });
      expect(JSON.stringify(read)).toContain(`"samples":[${text.join(',')}]`);
      // FHIR
      const fhir = toFhirObservation(read) as { valueSampledData: { data: string } };
      expect(fhir.valueSampledData.data).toBe(text.join(' '));
      // bulk export
      const ndjson = JSON.parse(ndjsonOf(exportLine(o, stored))) as { valueSampledData: { data: string } };
      expect(ndjson.valueSampledData.data).toBe(text.join(' '));
      // live = replay, byte for byte, and the samples are the device's
      const live = eventJson(storedObservation(o, row.steps));
      expect(live).toBe(eventJson(read));
      expect(live).toContain(`"samples":[${text.join(',')}]`);
      seen += samples.length;
    }
    expect(seen).toBe(2 * LIMIT + 1);
  });

  it('every step of a v2 frame (±20 mV) is stored as sent and read back as step / 10,000 mV', () => {
    let seq = 0;
    let seen = 0;
    for (let from = -MAX_SAMPLE_STEPS; from <= MAX_SAMPLE_STEPS; from += CHUNK) {
      const sent: number[] = [];
      for (let k = from; k < from + CHUNK && k <= MAX_SAMPLE_STEPS; k++) sent.push(k);
      const frame = `{"envelope":"${FRAME_ENVELOPE_V2}","patient_id":"pat-grid","device_id":"mon-grid","effective_at":"2026-11-30T01:02:03.456Z","observations":[{"seq":${++seq},"code":"${ECG_LEAD_II.code}","unit":"mV","waveform":{"period_ms":4,"sample_steps":[${sent.join(',')}]}}]}`;
      const decoded = decodeRecord(frame);
      if (!decoded.ok || decoded.invalid.length > 0) throw new Error(JSON.stringify(decoded));
      const [{ observation: o, steps }] = decoded.observations as [(typeof decoded.observations)[number]];
      const row = toRow(o, 0, String(seq), 0, steps);
      const stored = storedSteps(row);
      // the stored bytes are the steps as sent
      expect(Array.from({ length: sent.length }, (_, i) => stored.readInt32LE(i * 4))).toEqual(sent);
      expect(sampleStepsLiteral(row.steps!)).toBe(`\\x${stored.toString('hex')}`);
      // every output writes each step as the decimal k / 10,000, which parses back to k exactly
      const mv = sent.map((k) => String(k / SAMPLE_STEPS_PER_MV || 0));
      const read = observationFromRow(o.patient_id, { ...rowColumns(o), samples: null, sample_steps: stored });
      expect(JSON.stringify(read)).toContain(`"samples":[${mv.join(',')}]`);
      expect((toFhirObservation(read) as { valueSampledData: { data: string } }).valueSampledData.data).toBe(mv.join(' '));
      const ndjson = JSON.parse(ndjsonOf(exportLine(o, stored))) as { valueSampledData: { data: string } };
      expect(ndjson.valueSampledData.data).toBe(mv.join(' '));
      expect(mv.map((t) => Math.round(Number(t) * SAMPLE_STEPS_PER_MV))).toEqual(sent);
      // live = replay, byte for byte
      expect(eventJson(storedObservation(o, steps))).toBe(eventJson(read));
      seen += sent.length;
    }
    expect(seen).toBe(2 * MAX_SAMPLE_STEPS + 1);
  });

  it('folds the origin into the stored steps exactly (|origin + sample| <= 20 mV)', () => {
    const samples = [-10, -9.9999, -0.0001, 0, 0.0001, 0.1234, 9.9999, 10];
    for (const origin of [-10, -0.5, 0.1234, 10]) {
      const folded = foldedSamples({ origin, samples });
      const stored = encodeSampleSteps(folded);
      expect(decodeSampleSteps(stored)).toEqual(folded);
      expect(Array.from({ length: samples.length }, (_, i) => stored.readInt32LE(i * 4))).toEqual(
        samples.map((s) => Math.round((origin + s) * SAMPLE_STEPS_PER_MV)),
      );
    }
    expect(decodeSampleSteps(encodeSampleSteps([20, -20]))).toEqual([20, -20]);
  });

  it('never reads back -0, and reads a row stored before migration 0036 (real[]) the same way', () => {
    expect(Object.is(decodeSampleSteps(encodeSampleSteps(foldedSamples({ origin: 0, samples: [-0.00001] })))[0], 0)).toBe(true);
    const o = chunk([0.1234, -1.5, 0], 1);
    const legacy = observationFromRow(o.patient_id, { ...rowColumns(o), samples: [0.1234, -1.5, 0] });
    const steps = observationFromRow(o.patient_id, { ...rowColumns(o), samples: null, sample_steps: encodeSampleSteps([0.1234, -1.5, 0]) });
    expect(eventJson(steps)).toBe(eventJson(legacy));
  });
});

function rowColumns(o: VitalsObservation) {
  return {
    device_id: o.device_id,
    seq: o.seq,
    code: o.code,
    at: storedInstant(o.effective_at),
    value: null,
    unit: o.unit,
    sample_period_ms: 4,
  };
}
