/**
 * The pure rules of issue 29's storage contract at the edge: bounded device clocks
 * (schemas/src/clock.ts: effectiveAtProblem, recordNow), the stored forms the published bounds come
 * from (schemas/src/stored-form.ts: float4, quantisedPotential), and how the wire schema and the
 * ingest's decode apply them. The integration side: test/integration/vitals/storage-contract.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig, vitalsClockShape } from '@vitalis/config';
import {
  clockLimits,
  decodeRecord,
  DEFAULT_CLOCK_LIMITS,
  DEFAULT_MAX_CLOCK_SKEW_SECONDS,
  DEFAULT_RETENTION_DAYS,
  effectiveAtProblem,
  FRAME_ENVELOPE,
  float4,
  frameClockProblems,
  isFloat4Exact,
  nonBlankText,
  quantisedPotential,
  recordClock,
  recordNow,
  validateObservation,
} from '@vitalis/schemas';
import { foldedSamples } from '@vitalis/live';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const LIMITS = clockLimits({ maxSkewSeconds: 300, retentionDays: 30 });
const iso = (ms: number) => new Date(ms).toISOString();

describe('bounded device clocks: effectiveAtProblem(effective_at, now, limits)', () => {
  it('accepts the window [now - retention, now + skew] and nothing outside it', () => {
    expect(effectiveAtProblem(iso(NOW), NOW, LIMITS)).toBeUndefined();
    expect(effectiveAtProblem(iso(NOW + 300_000), NOW, LIMITS)).toBeUndefined();
    expect(effectiveAtProblem(iso(NOW - 30 * 86_400_000), NOW, LIMITS)).toBeUndefined();
    expect(effectiveAtProblem(iso(NOW - 4 * 60_000), NOW, LIMITS)).toBeUndefined(); // a few minutes late
    expect(effectiveAtProblem(iso(NOW + 300_001), NOW, LIMITS)).toMatch(/ahead/);
    expect(effectiveAtProblem(iso(NOW - 30 * 86_400_000 - 1), NOW, LIMITS)).toMatch(/retention/);
    expect(effectiveAtProblem('9977-02-13T02:04:00Z', NOW, LIMITS)).toMatch(/^must not be more than 300 s ahead/);
    expect(effectiveAtProblem('0001-01-01T00:00:00Z', NOW, LIMITS)).toMatch(/^must not be more than 30 days before/);
  });

  it('counts offsets and digits past the millisecond', () => {
    const edge = iso(NOW + 300_000).replace('Z', '');
    expect(effectiveAtProblem(`${edge}000Z`, NOW, LIMITS)).toBeUndefined();
    expect(effectiveAtProblem(`${edge}001Z`, NOW, LIMITS)).toMatch(/ahead/); // 1 µs past the bound
    expect(effectiveAtProblem('2026-11-28T13:05:00+01:00', NOW, LIMITS)).toBeUndefined(); // 12:05Z
    expect(effectiveAtProblem('2026-11-28T13:05:01+01:00', NOW, LIMITS)).toMatch(/ahead/);
    expect(effectiveAtProblem('2026-11-28T12:05:00.000000001z', NOW, LIMITS)).toMatch(/ahead/);
  });

  it('is exactly the window, for any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -40 * 86_400_000, max: 40 * 86_400_000 }), (offset) => {
        const ok = effectiveAtProblem(iso(NOW + offset), NOW, LIMITS) === undefined;
        expect(ok).toBe(offset <= LIMITS.maxSkewMs && offset >= -LIMITS.retentionMs);
      }),
      { numRuns: 2_000 },
    );
  });

  it('has its defaults in one place: the settings and the schemas agree', () => {
    const parsed = parseConfig(vitalsClockShape, {});
    expect(parsed).toEqual({
      VITALS_RETENTION_DAYS: DEFAULT_RETENTION_DAYS,
      VITALS_MAX_CLOCK_SKEW_SECONDS: DEFAULT_MAX_CLOCK_SKEW_SECONDS,
    });
    expect(DEFAULT_CLOCK_LIMITS).toEqual(
      clockLimits({ maxSkewSeconds: parsed.VITALS_MAX_CLOCK_SKEW_SECONDS, retentionDays: parsed.VITALS_RETENTION_DAYS }),
    );
    expect(DEFAULT_CLOCK_LIMITS).toEqual({ maxSkewMs: 300_000, retentionMs: 30 * 86_400_000 });
  });
});

describe('recordNow: the ingest judges a record by its timestamp', () => {
  it('takes the record timestamp, however late the record is processed (a replayed backlog keeps its verdict)', () => {
    const produced = NOW - 10 * 86_400_000;
    expect(recordNow(String(produced), NOW, LIMITS)).toBe(produced);
    expect(recordNow(produced, NOW + 365 * 86_400_000, LIMITS)).toBe(produced);
  });

  it('falls back to the wall clock for a missing timestamp or one itself more than the skew ahead (a device clock ahead cannot vouch for itself)', () => {
    expect(recordNow(undefined, NOW, LIMITS)).toBe(NOW);
    expect(recordNow('-1', NOW, LIMITS)).toBe(NOW);
    expect(recordNow('', NOW, LIMITS)).toBe(NOW);
    expect(recordNow(String(NOW + 300_000), NOW, LIMITS)).toBe(NOW + 300_000);
    expect(recordNow(String(Date.parse('9977-02-13T02:04:00Z')), NOW, LIMITS)).toBe(NOW);
  });
});

describe('decodeRecord with the record clock (the ingest)', () => {
  const clock = recordClock(String(NOW), LIMITS, NOW);
  const hr = (at: string, seq = 1) => ({ patient_id: 'p', device_id: 'd', seq, effective_at: at, code: '8867-4', value: 70, unit: '/min' });

  it('dead-letters a single observation from a far-future clock with the reason naming effective_at', () => {
    expect(decodeRecord(JSON.stringify(hr('9977-02-13T02:04:00Z')), clock)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^clock-out-of-bounds: effective_at: must not be more than 300 s ahead/),
    });
    expect(decodeRecord(JSON.stringify(hr(iso(NOW - 31 * 86_400_000))), clock)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^clock-out-of-bounds: effective_at: .*retention/),
    });
    expect(decodeRecord(JSON.stringify(hr(iso(NOW - 120_000))), clock)).toMatchObject({ ok: true, observations: [{ item: 0 }] });
    // without a clock (a caller that does not judge time), only the schema
    expect(decodeRecord(JSON.stringify(hr('9977-02-13T02:04:00Z')))).toMatchObject({ ok: true });
  });

  it('judges a frame: a bad tick refuses the frame, a bad own time refuses that observation alone', () => {
    const frame = (at: string, items: object[]) =>
      JSON.stringify({ envelope: FRAME_ENVELOPE, patient_id: 'p', device_id: 'd', effective_at: at, observations: items });
    const good = { seq: 1, code: '8867-4', value: 70, unit: '/min' };
    expect(decodeRecord(frame('9977-02-13T02:04:00Z', [good]), clock)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^frame-invalid: effective_at: must not be more than 300 s ahead/),
    });
    const decoded = decodeRecord(frame(iso(NOW), [good, { ...good, seq: 2, effective_at: '9977-02-13T02:04:00Z' }]), clock);
    expect(decoded).toMatchObject({
      ok: true,
      observations: [{ item: 0 }],
      invalid: [
        {
          item: 1,
          reason: expect.stringMatching(
            /^observations\.1 clock-out-of-bounds: observations\.1\.effective_at: must not be more than 300 s ahead/,
          ),
        },
      ],
    });
    expect(
      frameClockProblems({ effective_at: iso(NOW), observations: [good, { effective_at: iso(NOW - 40 * 86_400_000) }] }, clock),
    ).toEqual([{ path: 'observations.1.effective_at', message: expect.stringMatching(/retention/) }]);
  });
});

describe('stored forms: the published bounds are what the columns hold', () => {
  const ecg = (waveform: Record<string, unknown>) => ({
    patient_id: 'p',
    device_id: 'd',
    seq: 1,
    effective_at: iso(NOW),
    code: '131330',
    unit: 'mV',
    waveform: { origin: 0, period_ms: 4, samples: [0], ...waveform },
  });

  it('period_ms: a value float4 does not hold exactly is refused (5e-324 and other denormals, more digits than a float4 keeps)', () => {
    for (const period of [5e-324, 1e-320, 1e-40, 0.0009, 4.00000001, 1.0000000000000002, 0.1 + 0.2]) {
      const result = validateObservation(ecg({ period_ms: period }));
      expect(result.ok, String(period)).toBe(false);
      expect(!result.ok && [...new Set(result.problems.map((p) => p.path))]).toEqual(['waveform.period_ms']);
    }
    for (const period of [0.001, 4, 3.90625, 2.77778, 1000, 0.1, 999.999, 1.0000001]) {
      expect(validateObservation(ecg({ period_ms: period })).ok, String(period)).toBe(true);
      expect(float4(period)).toBe(period);
    }
  });

  it('isFloat4Exact: every decimal of at most 6 significant digits in [0.001, 1000] is held; float4 is idempotent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: -3, max: 3 }), (mantissa, exp) => {
        const x = Number(`${mantissa}e${exp - 3}`);
        fc.pre(x >= 0.001 && x <= 1000);
        expect(isFloat4Exact(x)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1000, noNaN: true }), (x) => {
        expect(isFloat4Exact(float4(x))).toBe(true);
        expect(Math.fround(float4(x))).toBe(Math.fround(x));
      }),
      { numRuns: 2_000 },
    );
  });

  it('samples: stored as origin + sample at 0.1 µV (the documented quantisation), never -0, what the ingest folds', () => {
    expect(quantisedPotential(0, 1e-320)).toBe(0);
    expect(Object.is(quantisedPotential(0, -0), 0)).toBe(true);
    expect(Object.is(quantisedPotential(0, -1e-9), 0)).toBe(true);
    expect(quantisedPotential(0.5, 0.12344)).toBe(0.6234);
    expect(quantisedPotential(-10, -10)).toBe(-20);
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), (origin, sample) => {
        const q = quantisedPotential(origin, sample);
        expect(Math.abs(q - (origin + sample))).toBeLessThanOrEqual(0.00005 + 1e-12);
        expect(float4(q)).toBe(q); // the real[] column reads it back unchanged
        expect(foldedSamples({ origin, samples: [sample] })).toEqual([q]);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('free text: no control characters but tab, LF and CR (FHIR string)', () => {
  const text = nonBlankText(100);
  it('refuses code points below 32 other than tab, LF and CR; keeps the rest', () => {
    for (let c = 0; c < 32; c++) {
      const ok = text.safeParse(`a${String.fromCharCode(c)}b`).success;
      expect(ok, `U+${c.toString(16).padStart(4, '0')}`).toBe(c === 9 || c === 10 || c === 13);
    }
    expect(text.safeParse('Ærø 😀 \u007f').success).toBe(true);
    expect(text.safeParse('   ').success).toBe(false);
  });
});
