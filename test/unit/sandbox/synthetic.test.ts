/**
 * The sandbox's pure parts: the data rule, the generator's determinism and shapes, the resume plan
 * (issued ids, the window), and the synthetic slots' paging.
 */
import { describe, expect, it } from 'vitest';
import { decodeCursor } from '@vitalis/live';
import { validateObservation } from '@vitalis/schemas';
import { dataSourceOf, isSandboxPatientId } from '../../../apps/gateway/src/access/sandbox';
import { access } from '../../../apps/gateway/src/access/policy';
import type { Principal } from '../../../apps/gateway/src/access/principal';
import { planSyntheticResume } from '../../../apps/gateway/src/vitals/synthetic-live';
import { syntheticSlots } from '../../../apps/gateway/src/appointments/synthetic-slots';
import { syntheticBuckets, syntheticLatest, syntheticRaw } from '../../../apps/gateway/src/vitals/synthetic';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0, 400);
const S = Math.floor(NOW / 1000);

describe('the sandbox data rule', () => {
  it('a sandbox principal reads sbx- ids only; nobody writes for one; a mix has no single source', () => {
    expect(isSandboxPatientId('sbx-0001')).toBe(true);
    expect(isSandboxPatientId('pat-sbx-1')).toBe(false);
    const who = (sandbox: boolean, roles: Principal['roles'], scopes: Principal['scopes']): Principal => ({
      clientId: 'c',
      subject: 's',
      scopes,
      roles,
      tokenId: 't',
      expiresAt: 0,
      authMethod: 'client_secret',
      derivedFrom: [],
      sandbox,
    });
    const sandbox = who(true, [], ['read:vitals', 'read:appointments']);
    expect(access(sandbox, 'Observation', 'read', ['sbx-0001']).allowed).toBe(true);
    expect(access(sandbox, 'Observation', 'read', ['sbx-0001', 'pat-0001'])).toMatchObject({
      allowed: false,
      reason: 'sandbox',
      patients: ['pat-0001'],
    });
    expect(access(who(false, ['nurse'], ['read:vitals']), 'Observation', 'read', ['sbx-0001', 'pat-0001']).allowed).toBe(true);
    expect(access(who(false, ['device'], ['write:vitals']), 'Observation', 'write', ['pat-0001', 'sbx-0002'])).toMatchObject({
      allowed: false,
      reason: 'sandbox',
      patients: ['sbx-0002'],
    });
    expect(dataSourceOf(['sbx-0001', 'sbx-0002'])).toBe('synthetic');
    expect(dataSourceOf(['pat-0001'])).toBe('log');
    expect(() => dataSourceOf(['sbx-0001', 'pat-0001'])).toThrow(/cannot mix/);
  });
});

describe('synthetic vitals', () => {
  const range = {
    from: new Date(Date.UTC(2026, 10, 25, 11, 58)).toISOString(),
    to: new Date(Date.UTC(2026, 10, 25, 11, 59)).toISOString(),
  }; // one whole minute

  it('are the same on every call, valid observations, 6 a second, and page exactly', () => {
    const whole = syntheticRaw({ patient: 'sbx-0002', ...range, limit: 1_000 }, NOW);
    expect(whole.rows).toHaveLength(360);
    expect(syntheticRaw({ patient: 'sbx-0002', ...range, limit: 1_000 }, NOW + 3_600_000).rows).toEqual(whole.rows);
    for (const o of whole.rows) expect(validateObservation(o).ok).toBe(true);
    const first = syntheticRaw({ patient: 'sbx-0002', ...range, limit: 100 }, NOW);
    const next = syntheticRaw(
      { patient: 'sbx-0002', ...range, limit: 1_000, after: { t: first.last!.at, d: first.last!.device_id, s: first.last!.seq } },
      NOW,
    );
    expect([...first.rows, ...next.rows]).toEqual(whole.rows);
    expect(syntheticRaw({ patient: 'sbx-9999', ...range, limit: 10 }, NOW).rows).toEqual([]);
    expect(syntheticRaw({ patient: 'sbx-0002', ...range, code: '131330', limit: 10 }, NOW).rows).toEqual([]);
  });

  it('page newest first exactly (FHIR _sort=-date): the ascending rows reversed', () => {
    const whole = syntheticRaw({ patient: 'sbx-0002', ...range, limit: 1_000 }, NOW);
    const first = syntheticRaw({ patient: 'sbx-0002', ...range, limit: 77, descending: true }, NOW);
    const next = syntheticRaw(
      {
        patient: 'sbx-0002',
        ...range,
        limit: 1_000,
        descending: true,
        after: { t: first.last!.at, d: first.last!.device_id, s: first.last!.seq },
      },
      NOW,
    );
    expect(first.more).toBe(true);
    expect(next.more).toBe(false);
    expect([...first.rows, ...next.rows]).toEqual([...whole.rows].reverse());
  });

  it('never exist in the future, nor before the 6-hour horizon', () => {
    const future = syntheticRaw(
      { patient: 'sbx-0001', from: new Date(NOW - 1_000).toISOString(), to: new Date(NOW + 60_000).toISOString(), limit: 100 },
      NOW,
    );
    expect(future.rows.every((o) => Date.parse(o.effective_at) <= NOW)).toBe(true);
    const old = syntheticRaw(
      {
        patient: 'sbx-0001',
        from: new Date(NOW - 7 * 3_600_000).toISOString(),
        to: new Date(NOW - 6 * 3_600_000 - 5_000).toISOString(),
        limit: 100,
      },
      NOW,
    );
    expect(old.rows).toEqual([]);
  });

  it('buckets agree with the raw samples; latest is the current second', () => {
    const raw = syntheticRaw({ patient: 'sbx-0004', ...range, code: '8867-4', limit: 1_000 }, NOW).rows.map((o) =>
      'value' in o ? o.value : NaN,
    );
    const [bucket] = syntheticBuckets({ patient: 'sbx-0004', ...range, code: '8867-4', bucket: '1m', limit: 10 }, NOW).rows;
    expect(bucket).toMatchObject({ code: '8867-4', count: 60, min: Math.min(...raw), max: Math.max(...raw), last: raw[59] });
    expect(bucket!.avg).toBeCloseTo(raw.reduce((a, b) => a + b, 0) / 60, 9);
    const latest = syntheticLatest('sbx-0004', ['8867-4', '131330'], NOW);
    expect(latest).toHaveLength(1);
    expect(Date.parse(latest[0]!.effective_at)).toBe(S * 1000);
  });
});

describe('planSyntheticResume', () => {
  const plan = (id: string, patients = ['sbx-0001']) =>
    planSyntheticResume({ patients, after: decodeCursor(id)!, lastEventId: id, windowSeconds: 300 }, NOW);

  it('keeps a position inside the window', () => {
    expect(plan(`1-${(S - 10) * 8 + 3}`)).toEqual({ after: decodeCursor(`1-${(S - 10) * 8 + 3}`) });
  });

  it('refuses ids it never issued: another partition, an alert, an unused position, the future', () => {
    for (const id of ['9-8', `1-${S * 8}.1`, `1-${S * 8 + 6}`, `1-${(S + 1) * 8}`])
      expect(() => plan(id), id).toThrow(/not an id this stream issued/);
  });

  it('moves an old position up to the window and names the gap', () => {
    const p = plan(`1-${(S - 1_000) * 8 + 5}`);
    expect(p.after.get(1)).toEqual({ offset: (S - 300) * 8 + 7, k: 0 });
    expect(p.truncated!.gaps).toEqual([
      {
        patient_id: 'sbx-0001',
        from: `${new Date((S - 999) * 1000).toISOString().slice(0, 19)}.000000Z`,
        to: new Date((S - 299) * 1000).toISOString(),
      },
    ]);
  });
});

describe('synthetic slots', () => {
  it('three sbx- practitioners over 7 days, paged by (start, id) without gap or duplicate', () => {
    const all = syntheticSlots({ limit: 1_000 }, NOW);
    expect(all.slots).toHaveLength(7 * 16 * 3);
    expect(all.slots.every((s) => s.id.startsWith('sbx-') && s.clinicianId.startsWith('sbx-') && s.patientId === null)).toBe(true);
    const first = syntheticSlots({ limit: 100 }, NOW);
    const last = first.slots.at(-1)!;
    const rest = syntheticSlots({ limit: 1_000, after: { t: last.start, s: last.id } }, NOW);
    expect([...first.slots, ...rest.slots]).toEqual(all.slots);
    expect(
      syntheticSlots({ limit: 1_000, status: 'free', clinician: 'sbx-dr-0002' }, NOW).slots.every(
        (s) => s.status === 'free' && s.clinicianId === 'sbx-dr-0002',
      ),
    ).toBe(true);
  });
});
