/**
 * The diagnostics deciders (pure): every FHIR transition of an order and a report allowed or
 * refused as the tables say, interpretations from the one table of limits, critical results
 * raised once until acknowledged, escalation only when due.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTES, ORDERABLE_CODES, interpretQuantity, isCriticalInterpretation, type QuantityAnalyte } from '@vitalis/clinical';
import {
  DIAGNOSTIC_REPORT_STATUSES,
  DIAGNOSTIC_REPORT_TRANSITIONS,
  SERVICE_REQUEST_STATUSES,
  SERVICE_REQUEST_TRANSITIONS,
  decideDiagnosticReport,
  decideServiceRequest,
  evolveDiagnosticReport,
  foldDiagnosticReport,
  foldServiceRequest,
  interpretResult,
  ResultInputError,
  type DiagnosticReportState,
  type ServiceRequestState,
} from '@vitalis/records';

const now = '2026-11-25T10:00:00.000Z';
const fold = <E extends { type: string; data: Record<string, unknown> }>(events: E[]) =>
  events.map((e, i) => ({ ...e, data: e.data as Record<string, unknown>, streamVersion: i + 1, recordedAt: now }));

function orderIn(status: (typeof SERVICE_REQUEST_STATUSES)[number]): ServiceRequestState {
  const base = foldServiceRequest(
    fold([
      {
        type: 'ServiceRequestCreated',
        data: {
          id: 'sr-1',
          patientId: 'p1',
          intent: 'order',
          priority: 'stat',
          code: '2524-7',
          reason: null,
          requester: 'u',
          performer: 'Laboratory',
          note: null,
          status: 'draft',
        },
      },
    ]),
  )!;
  return { ...base, status };
}

describe('order decider (FHIR request-status)', () => {
  const commands = {
    activate: 'active',
    hold: 'on-hold',
    revoke: 'revoked',
    complete: 'completed',
    enterInError: 'entered-in-error',
  } as const;
  it('allows exactly the transitions of the table and names the current state otherwise', () => {
    for (const from of SERVICE_REQUEST_STATUSES) {
      for (const [type, to] of Object.entries(commands)) {
        const d = decideServiceRequest(
          type === 'complete' ? { type: 'complete', reportId: 'dr-1' } : { type: type as 'activate' },
          orderIn(from),
        );
        const allowed = SERVICE_REQUEST_TRANSITIONS[from].includes(to);
        expect(d.ok, `${from} → ${to}`).toBe(allowed);
        if (!d.ok) expect(d.error).toEqual({ kind: 'illegal-transition', from, to });
        else
          expect(
            foldServiceRequest(
              fold([{ type: 'ServiceRequestCreated', data: { ...orderIn(from), status: 'draft' } as never }, ...d.events]),
            )!.status,
          ).toBe(to);
      }
    }
    expect(SERVICE_REQUEST_TRANSITIONS['entered-in-error']).toEqual([]);
    expect(decideServiceRequest({ type: 'activate' }, null)).toEqual({ ok: false, error: { kind: 'not-found' } });
  });

  it('the catalog holds the tests of the issue (CBC, BMP, troponin I and hs, lactate, blood gas, 12-lead, rhythm strip, chest X-ray)', () => {
    expect(ORDERABLE_CODES.sort()).toEqual(
      ['10839-9', '11524-6', '24336-0', '2524-7', '34534-8', '36643-5', '51990-0', '58410-2', '89579-7'].sort(),
    );
  });
});

const post = (
  results: { code: string; value?: number; text?: string; interpretation?: 'A' | 'AA' | 'N' }[],
  status: 'registered' | 'preliminary' | 'final' = 'final',
) =>
  decideDiagnosticReport(
    {
      type: 'post',
      status,
      results,
      conclusion: null,
      by: 'lab',
      now,
      escalationSeconds: 900,
      details: {
        id: 'dr-1',
        patientId: 'p1',
        orderId: 'sr-1',
        code: '51990-0',
        identifier: { system: 's', value: 'v' },
        performer: 'Laboratory',
        effectiveAt: now,
        contentHash: 'h',
      },
    },
    null,
  );

function reportAfter(results: Parameters<typeof post>[0], status?: 'registered' | 'preliminary' | 'final'): DiagnosticReportState {
  const d = post(results, status);
  if (!d.ok) throw new Error('refused');
  return foldDiagnosticReport(fold(d.events))!;
}

describe('report decider', () => {
  it('interprets from the one table: potassium 2.4 LL, 3.2 L, 4.0 N, 5.5 H, 6.1 HH; lactate > 4 and troponin above its decision limit critical', () => {
    const k = ANALYTES['2823-3'] as QuantityAnalyte;
    expect([2.4, 3.2, 4.0, 5.5, 6.1].map((v) => interpretQuantity(k, v))).toEqual(['LL', 'L', 'N', 'H', 'HH']);
    expect(interpretQuantity(ANALYTES['2524-7'] as QuantityAnalyte, 4.1)).toBe('HH');
    expect(interpretQuantity(ANALYTES['2524-7'] as QuantityAnalyte, 3.9)).toBe('H');
    expect(interpretQuantity(ANALYTES['10839-9'] as QuantityAnalyte, 0.05)).toBe('HH');
    expect(['LL', 'HH', 'AA'].every((i) => isCriticalInterpretation(i as never))).toBe(true);
    expect(['L', 'H', 'A', 'N'].some((i) => isCriticalInterpretation(i as never))).toBe(false);
  });

  it('raises a critical result with the result, due after the escalation time; refuses uninterpretable results', () => {
    const d = post([
      { code: '2823-3', value: 6.5 },
      { code: '2951-2', value: 140 },
    ]);
    expect(d.ok && d.events.map((e) => e.type)).toEqual(['DiagnosticReportRegistered', 'CriticalResultRaised']);
    const raised = d.ok ? d.events[1]!.data : {};
    expect(raised).toMatchObject({
      criticalId: 'dr-1.1',
      dueAt: '2026-11-25T10:15:00.000Z',
      results: [{ code: '2823-3', value: 6.5, unit: 'mmol/L', interpretation: 'HH' }],
    });
    expect(
      post([{ code: '8601-7', text: 'VF', interpretation: 'AA' }]).ok &&
        (post([{ code: '8601-7', text: 'VF', interpretation: 'AA' }]) as { events: unknown[] }).events,
    ).toHaveLength(2);
    // refused explicitly, naming the result's index and why (the gateway's 422)
    expect(
      post([
        { code: '2823-3', value: 4 },
        { code: '0000-0', value: 1 },
      ]),
    ).toEqual({ ok: false, error: { kind: 'invalid-result', index: 1, message: expect.stringMatching(/0000-0 is not a result code/) } });
    expect(post([{ code: '2823-3', text: 'high' }])).toMatchObject({
      ok: false,
      error: { kind: 'invalid-result', index: 0, message: expect.stringMatching(/needs a numeric value/) },
    });
    expect(post([{ code: '2823-3', value: 5, interpretation: 'N' }])).toMatchObject({
      ok: false,
      error: { kind: 'invalid-result', index: 0, message: expect.stringMatching(/computed from its ranges/) },
    });
    expect(() => interpretResult({ code: '0000-0', value: 1 }, 3)).toThrow(ResultInputError);
  });

  it('allows exactly the status transitions of the table (update and amend)', () => {
    for (const from of DIAGNOSTIC_REPORT_STATUSES) {
      const state = { ...reportAfter([]), status: from };
      for (const to of ['registered', 'partial', 'preliminary', 'final'] as const) {
        const d = decideDiagnosticReport(
          { type: 'update', status: to, results: [], conclusion: null, contentHash: 'x', by: 'lab', now, escalationSeconds: 1 },
          state,
        );
        expect(d.ok, `${from} → ${to}`).toBe(DIAGNOSTIC_REPORT_TRANSITIONS[from].includes(to));
      }
      for (const to of ['amended', 'corrected'] as const) {
        const d = decideDiagnosticReport(
          { type: 'amend', status: to, results: [], conclusion: null, reason: 'r', by: 'lab', now, escalationSeconds: 1 },
          state,
        );
        expect(d.ok, `${from} → ${to}`).toBe(DIAGNOSTIC_REPORT_TRANSITIONS[from].includes(to));
        if (!d.ok) expect(d.error).toEqual({ kind: 'illegal-transition', from, to });
      }
      expect(decideDiagnosticReport({ type: 'cancel', by: 'lab' }, state).ok, `${from} → cancelled`).toBe(
        ['registered', 'partial', 'preliminary'].includes(from),
      );
    }
  });

  it('one open critical result at a time; escalation only when due and open; acknowledgement clears it', () => {
    let state = reportAfter([{ code: '2524-7', value: 5 }], 'preliminary');
    const again = decideDiagnosticReport(
      {
        type: 'update',
        status: 'final',
        results: [{ code: '2524-7', value: 6 }],
        conclusion: null,
        contentHash: 'y',
        by: 'lab',
        now,
        escalationSeconds: 900,
      },
      state,
    );
    expect(again.ok && again.events.map((e) => e.type)).toEqual(['DiagnosticReportUpdated']);
    expect(decideDiagnosticReport({ type: 'escalate', now: '2026-11-25T10:14:59.000Z' }, state).ok).toBe(false);
    const esc = decideDiagnosticReport({ type: 'escalate', now: '2026-11-25T10:15:00.000Z' }, state);
    expect(esc.ok).toBe(true);
    if (esc.ok)
      state = esc.events.reduce(
        (s, e) => evolveDiagnosticReport(s, { ...e, streamVersion: s!.version + 1, recordedAt: now })!,
        state as DiagnosticReportState | null,
      )!;
    expect(state.critical?.state).toBe('escalated');
    expect(decideDiagnosticReport({ type: 'escalate', now: '2026-11-25T11:00:00.000Z' }, state).ok).toBe(false);
    const ack = decideDiagnosticReport({ type: 'acknowledge', by: 'dr', now }, state);
    expect(ack.ok).toBe(true);
    if (ack.ok)
      state = ack.events.reduce(
        (s, e) => evolveDiagnosticReport(s, { ...e, streamVersion: s!.version + 1, recordedAt: now })!,
        state as DiagnosticReportState | null,
      )!;
    expect(state.critical).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'dr' });
    expect(decideDiagnosticReport({ type: 'acknowledge', by: 'dr', now }, state)).toEqual({
      ok: false,
      error: { kind: 'illegal-transition', from: 'critical result acknowledged', to: 'acknowledged' },
    });
    const fresh = decideDiagnosticReport(
      {
        type: 'update',
        status: 'final',
        results: [{ code: '2524-7', value: 6 }],
        conclusion: null,
        contentHash: 'z',
        by: 'lab',
        now,
        escalationSeconds: 900,
      },
      state,
    );
    expect(fresh.ok && fresh.events.map((e) => [e.type, e.data.criticalId])).toEqual([
      ['DiagnosticReportUpdated', undefined],
      ['CriticalResultRaised', 'dr-1.2'],
    ]);
  });

  it('an acknowledgement records the user, their display name and the app; an earlier acknowledged result stays readable after a new one is raised', () => {
    const apply = (s: DiagnosticReportState, events: { type: string; data: Record<string, unknown> }[]) =>
      events.reduce(
        (x, e) => evolveDiagnosticReport(x, { ...e, streamVersion: x!.version + 1, recordedAt: now })!,
        s as DiagnosticReportState | null,
      )!;
    let state = reportAfter([{ code: '2823-3', value: 6.8 }], 'preliminary');
    const ack = decideDiagnosticReport(
      { type: 'acknowledge', by: 'usr-1', byName: 'Dr. Ada Grey', client: 'cli_ward', note: 'repeat in 1 h', now },
      state,
    );
    expect(ack.ok && ack.events[0]!.data).toMatchObject({ by: 'usr-1', byName: 'Dr. Ada Grey', client: 'cli_ward', at: now });
    if (!ack.ok) throw new Error('refused');
    state = apply(state, ack.events);
    expect(state.critical).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: 'usr-1',
      acknowledgedByName: 'Dr. Ada Grey',
      acknowledgedWith: 'cli_ward',
      acknowledgedAt: now,
      note: 'repeat in 1 h',
    });
    expect(state.earlierCritical).toEqual([]);
    const first = state.critical!;
    const again = decideDiagnosticReport(
      {
        type: 'update',
        status: 'final',
        results: [{ code: '2823-3', value: 7.1 }],
        conclusion: null,
        contentHash: 'k',
        by: 'lab',
        now,
        escalationSeconds: 900,
      },
      state,
    );
    if (!again.ok) throw new Error('refused');
    state = apply(state, again.events);
    expect(state.critical).toMatchObject({ id: 'dr-1.2', state: 'open', acknowledgedBy: null, acknowledgedByName: null });
    expect(state.earlierCritical).toEqual([first]);
    // an acknowledgement without a known name (a user of a trusted issuer): the id only
    const bare = decideDiagnosticReport({ type: 'acknowledge', by: 'ext-7', now }, state);
    expect(bare.ok && bare.events[0]!.data).not.toHaveProperty('byName');
  });
});
