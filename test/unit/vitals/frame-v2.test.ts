/**
 * The v2 frame (ADR 0029): an ECG chunk's samples as whole 0.1 µV steps (`sample_steps`). The
 * ingest's one-loop check of the steps answers exactly what zod answers; a record decodes into the
 * same observations as the v1 frame of the same potentials, with the steps as sent; the published
 * JSON Schema is current; POST /api/v1/vitals' frame schema takes either version.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  anyVitalsFrameSchema,
  decodeRecord,
  ECG_LEAD_II,
  FRAME_ENVELOPE,
  FRAME_ENVELOPE_V2,
  MAX_SAMPLE_STEPS,
  MAX_WAVEFORM_SAMPLES,
  vitalsFrameV2ItemSchema,
} from '@vitalis/schemas';
import { FRAME_V2_JSON_SCHEMA_PATH, renderFrameV2JsonSchema } from '../../../schemas/scripts/export-json-schema';
import { expectSameAsPlainParse } from '../../helpers/same-as-plain-parse';

const ecg = (sample_steps: unknown, extra: Record<string, unknown> = {}) => ({
  seq: 7,
  code: ECG_LEAD_II.code,
  unit: 'mV',
  waveform: { period_ms: 4, sample_steps },
  ...extra,
});

describe('v2 ECG steps checked in one loop (parseWithSamples)', () => {
  const cases: [string, unknown][] = [
    ['a valid chunk', ecg(Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i) * 30_000)))],
    ['the range ends', ecg([-MAX_SAMPLE_STEPS, MAX_SAMPLE_STEPS, 0])],
    ['the most samples', ecg(Array.from({ length: MAX_WAVEFORM_SAMPLES }, () => 5))],
    ['one too many samples', ecg(Array.from({ length: MAX_WAVEFORM_SAMPLES + 1 }, () => 5))],
    ['no sample', ecg([])],
    ['a step past the range', ecg([1, MAX_SAMPLE_STEPS + 1])],
    ['a step below the range', ecg([-MAX_SAMPLE_STEPS - 1])],
    ['a fraction of a step', ecg([1, 2.5])],
    ['a string step', ecg([1, '2'])],
    ['a null step', ecg([null])],
    ['-0', ecg([-0, 3])],
    ['steps not an array', ecg('1,2')],
    ['a v1 waveform in a v2 frame', ecg(undefined, { waveform: { origin: 0, period_ms: 4, samples: [0.1] } })],
    ['both forms at once', ecg([1], { waveform: { period_ms: 4, sample_steps: [1], samples: [0.1] } })],
    ['an origin beside the steps', ecg([1], { waveform: { origin: 0.5, period_ms: 4, sample_steps: [1] } })],
    ['a bad period', ecg([1], { waveform: { period_ms: 4.00000001, sample_steps: [1] } })],
    ['a numeric', { seq: 1, code: '8867-4', value: 60, unit: '/min' }],
    ['null', null],
  ];
  it.each(cases)('answers exactly what the plain parse answers: %s', (_label, value) =>
    expectSameAsPlainParse(vitalsFrameV2ItemSchema, value),
  );
});

describe('a v2 frame record', () => {
  const head = { patient_id: 'pat-1', device_id: 'mon-1', effective_at: '2026-11-30T05:00:00Z' };
  const numeric = { seq: 1, code: '8867-4', value: 72, unit: '/min' };
  const steps = [-100_000, -12_345, -1, 0, 1, 12_345, 100_000]; // ±10 mV: a v1 sample's range at origin 0

  it('decodes into the observations of the v1 frame of the same potentials, with the steps as sent', () => {
    const v2 = decodeRecord(JSON.stringify({ envelope: FRAME_ENVELOPE_V2, ...head, observations: [numeric, ecg(steps)] }));
    const v1 = decodeRecord(
      JSON.stringify({
        envelope: FRAME_ENVELOPE,
        ...head,
        observations: [numeric, { ...ecg(undefined), waveform: { origin: 0, period_ms: 4, samples: steps.map((k) => k / 10_000) } }],
      }),
    );
    if (!v2.ok || !v1.ok) throw new Error('not decoded');
    expect(v2.invalid).toEqual([]);
    expect(v2.observations.map((o) => o.observation)).toEqual(v1.observations.map((o) => o.observation));
    expect(Array.from(v2.observations[1]!.steps!)).toEqual(steps);
    expect(Array.from(v1.observations[1]!.steps!)).toEqual(steps);
    expect(v2.observations[0]!.steps).toBeNull();
  });

  it('names a bad chunk by index and keeps the rest; an unknown envelope refuses the frame', () => {
    const decoded = decodeRecord(JSON.stringify({ envelope: FRAME_ENVELOPE_V2, ...head, observations: [numeric, ecg([1, 0.5])] }));
    expect(decoded).toMatchObject({
      ok: true,
      frame: true,
      invalid: [
        { item: 1, reason: expect.stringMatching(/^observations\.1 schema-invalid: observations\.1\.waveform\.sample_steps\.1: /) },
      ],
    });
    expect(decoded.ok && decoded.observations.map((o) => o.item)).toEqual([0]);
    expect(decodeRecord(JSON.stringify({ envelope: 'vitals.frame.v3', ...head, observations: [numeric] }))).toEqual({
      ok: false,
      reason: 'frame-invalid: envelope: must be vitals.frame.v1 or vitals.frame.v2',
    });
  });

  it('is a frame POST /api/v1/vitals takes (either version, told apart by envelope)', () => {
    expect(anyVitalsFrameSchema.safeParse({ envelope: FRAME_ENVELOPE_V2, ...head, observations: [numeric, ecg(steps)] }).success).toBe(
      true,
    );
    expect(anyVitalsFrameSchema.safeParse({ envelope: FRAME_ENVELOPE, ...head, observations: [numeric, ecg(steps)] }).success).toBe(false);
    const repeated = anyVitalsFrameSchema.safeParse({
      envelope: FRAME_ENVELOPE_V2,
      ...head,
      observations: [numeric, ecg(steps, { seq: 1 })],
    });
    expect(repeated.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['observations.1.seq', 'must not repeat a seq of the same frame'],
    ]);
  });

  it('the committed JSON Schema is current (regenerate: node --import tsx schemas/scripts/export-json-schema.ts)', async () => {
    expect(await readFile(FRAME_V2_JSON_SCHEMA_PATH, 'utf8')).toBe(renderFrameV2JsonSchema());
    const schema = JSON.parse(renderFrameV2JsonSchema()) as { $defs: { VitalsFrameV2: { properties: { envelope: { const: string } } } } };
    expect(schema.$defs.VitalsFrameV2.properties.envelope.const).toBe(FRAME_ENVELOPE_V2);
  });
});
