/**
 * The deciders of patients, slots and triage (pure): every command's events, with the data the
 * gateway appended by hand before (the projections and the tests over HTTP read exactly these),
 * and every refusal of each domain's table; the deciders the command handler runs for orders,
 * reports and alarms (a report's uninterpretable result refused after the existence and transition
 * checks; the alarm decider's evolve leaves the state it is given as it was).
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@vitalis/eventstore';
import {
  ALARM_EVENTS,
  DIAGNOSTIC_REPORT_DECIDER,
  PATIENT_ALARMS_DECIDER,
  PATIENT_DECIDER,
  SERVICE_REQUEST_DECIDER,
  SLOT_DECIDER,
  TRIAGE_DECIDER,
  decidePatient,
  decideSlot,
  decideTriage,
  foldAlarms,
  type DiagnosticReportState,
  type PatientCommand,
  type PatientState,
  type SlotState,
  type TriageState,
} from '@vitalis/records';

const at = '2030-01-01T10:00:00.000Z';

interface Fold<S> {
  initialState: () => S;
  evolve: (s: S, e: StoredEvent) => S;
}

/** Folds decided events with a decider's evolve, as the command handler does with the stored ones (after `version`). */
function fold<S>(decider: Fold<S>, events: { type: string; data: object }[], from = decider.initialState(), version = 0): S {
  return events.reduce((s, e, i) => {
    const v = version + i + 1;
    const stored = {
      globalPosition: v,
      eventId: `e${v}`,
      streamId: 'x-1',
      streamVersion: v,
      schemaVersion: 1,
      metadata: { time: at },
      recordedAt: at,
    };
    return decider.evolve(s, { ...stored, type: e.type, data: e.data as Record<string, unknown> });
  }, from);
}

/** The events of an accepted decision (a refusal fails the test). */
const eventsOf = <E>(d: { ok: true; events: E[] } | { ok: false }): E[] => {
  if (!d.ok) throw new Error('refused');
  return d.events;
};

/** An accepted decision of one event; a refusal. */
const one = (type: string, data: object) => ({ ok: true, events: [{ type, data }] });
const refused = (kind: string, detail: object = {}) => ({ ok: false, error: { kind, ...detail } });

describe('patient decider', () => {
  const ada = { family: 'Ada', given: ['B'] };
  const register = { type: 'register' as const, patientId: 'pat-1', demographics: ada };
  const registered = (): PatientState => fold(PATIENT_DECIDER, eventsOf(decidePatient(register, null)))!;

  it('register: PatientRegistered with the id and the demographics as given; an existing patient is refused', () => {
    const demographics = { ...ada, birthDate: '1990-01-01', identifiers: [{ system: 's', value: 'v' }] };
    expect(decidePatient({ ...register, demographics }, null)).toEqual(one('PatientRegistered', { patientId: 'pat-1', ...demographics }));
    expect(decidePatient(register, registered())).toEqual(refused('already-exists'));
  });

  it('update, record and remove an allergy: their events; optional allergy fields only when given', () => {
    const p = registered();
    expect(decidePatient({ type: 'update', demographics: { family: 'C', given: [] } }, p)).toEqual(
      one('PatientUpdated', { family: 'C', given: [] }),
    );
    const latex = { id: 'alg-1', substance: 'Latex', criticality: 'low' as const };
    const bare = decidePatient({ type: 'recordAllergy', allergy: { ...latex, coding: undefined, reaction: undefined } }, p);
    expect(bare).toEqual(one('AllergyRecorded', latex));
    const coding = [{ system: 'http://snomed.info/sct', code: '764146007', display: 'Penicillin' }];
    const penicillin = { id: 'alg-2', substance: 'Penicillin', coding, criticality: 'high' as const, reaction: 'Hives' };
    const coded = eventsOf(decidePatient({ type: 'recordAllergy', allergy: penicillin }, p));
    expect(coded).toEqual([{ type: 'AllergyRecorded', data: penicillin }]);
    const withAllergy = fold(PATIENT_DECIDER, coded, p, p.version);
    expect(withAllergy!.allergies.map((a) => a.id)).toEqual(['alg-2']);
    expect(decidePatient({ type: 'removeAllergy', allergyId: 'alg-2' }, withAllergy)).toEqual(one('AllergyRemoved', { id: 'alg-2' }));
  });

  it('refuses a command on a patient that does not exist, and the removal of an allergy not recorded', () => {
    const commands: PatientCommand[] = [
      { type: 'update', demographics: { family: 'C', given: [] } },
      { type: 'recordAllergy', allergy: { id: 'a', substance: 'Latex', criticality: 'low' } },
      { type: 'removeAllergy', allergyId: 'a' },
    ];
    for (const c of commands) expect(decidePatient(c, null), c.type).toEqual(refused('not-found'));
    expect(decidePatient({ type: 'removeAllergy', allergyId: 'alg-9' }, registered())).toEqual(
      refused('allergy-not-found', { allergyId: 'alg-9' }),
    );
  });
});

describe('slot decider', () => {
  const details = {
    slotId: 's1',
    clinicianId: 'cln-1',
    appointmentType: 'consultation',
    start: '2030-01-01T09:00:00Z',
    end: '2030-01-01T09:30:00Z',
  };
  const created = (): SlotState => fold(SLOT_DECIDER, eventsOf(decideSlot({ type: 'create', slot: details }, null)))!;
  const booked = (): SlotState => {
    const s = created();
    return fold(SLOT_DECIDER, eventsOf(decideSlot({ type: 'book', patientId: 'pat-1', reason: 'checkup' }, s)), s, s.version)!;
  };

  it('create: SlotCreated with the slot; an existing slot is refused', () => {
    expect(decideSlot({ type: 'create', slot: details }, null)).toEqual(one('SlotCreated', details));
    expect(decideSlot({ type: 'create', slot: details }, created())).toEqual(refused('already-exists'));
  });

  it("book: the appointment id is the slot and the booking's version; reason and the rescheduled-from link only when given", () => {
    const s = created();
    expect(decideSlot({ type: 'book', patientId: 'pat-1', reason: undefined }, s)).toEqual(
      one('AppointmentBooked', { appointmentId: 's1.2', patientId: 'pat-1' }),
    );
    expect(decideSlot({ type: 'book', patientId: 'pat-1', reason: null, rescheduledFrom: 's0.2' }, s)).toEqual(
      one('AppointmentBooked', { appointmentId: 's1.2', patientId: 'pat-1', rescheduledFrom: 's0.2' }),
    );
    expect(booked()).toMatchObject({ status: 'busy', appointmentId: 's1.2', patientId: 'pat-1', reason: 'checkup', version: 2 });
  });

  it('book refuses a missing slot and a busy one', () => {
    expect(decideSlot({ type: 'book', patientId: 'pat-1' }, null)).toEqual(refused('not-found'));
    expect(decideSlot({ type: 'book', patientId: 'pat-2' }, booked())).toEqual(refused('busy'));
  });

  it('cancel: AppointmentCancelled, a reason or the rescheduled-to link when given; refuses a missing slot, another booking or none', () => {
    const s = booked();
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.2' }, s)).toEqual(one('AppointmentCancelled', { appointmentId: 's1.2' }));
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.2', reason: 'ill' }, s)).toEqual(
      one('AppointmentCancelled', { appointmentId: 's1.2', reason: 'ill' }),
    );
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.2', rescheduledTo: 's3.4' }, s)).toEqual(
      one('AppointmentCancelled', { appointmentId: 's1.2', rescheduledTo: 's3.4' }),
    );
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.2' }, null)).toEqual(refused('not-found'));
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.1' }, s)).toEqual(refused('not-booked', { appointmentId: 's1.1' }));
    expect(decideSlot({ type: 'cancel', appointmentId: 's1.2' }, created())).toEqual(refused('not-booked', { appointmentId: 's1.2' }));
  });
});

describe('triage decider', () => {
  const fall = { type: 'admit' as const, patientId: 'pat-1', esi: 3 as const, complaint: 'fall' };
  const admitted = (): TriageState => fold(TRIAGE_DECIDER, eventsOf(decideTriage(fall, null)))!;
  const discharged = (): TriageState => {
    const s = admitted();
    return fold(TRIAGE_DECIDER, eventsOf(decideTriage({ type: 'discharge' }, s)), s, s.version)!;
  };

  it('admit: PatientArrived; a patient on the board is refused, a discharged one admitted again', () => {
    expect(decideTriage(fall, null)).toEqual(one('PatientArrived', { patientId: 'pat-1', esi: 3, complaint: 'fall' }));
    expect(decideTriage({ ...fall, esi: 2 }, admitted())).toEqual(refused('already-on-board'));
    expect(decideTriage({ ...fall, esi: 2 }, discharged()).ok).toBe(true);
  });

  it('set the level (a reason only when given) and discharge; refused for a patient not on the board (never admitted, or discharged)', () => {
    const s = admitted();
    expect(decideTriage({ type: 'setLevel', esi: 1, reason: undefined }, s)).toEqual(one('TriageLevelSet', { esi: 1 }));
    expect(decideTriage({ type: 'setLevel', esi: 1, reason: 'worse' }, s)).toEqual(one('TriageLevelSet', { esi: 1, reason: 'worse' }));
    expect(decideTriage({ type: 'discharge' }, s)).toEqual(one('PatientDischarged', {}));
    for (const state of [null, discharged()]) {
      expect(decideTriage({ type: 'setLevel', esi: 1 }, state)).toEqual(refused('not-found'));
      expect(decideTriage({ type: 'discharge' }, state)).toEqual(refused('not-found'));
    }
  });
});

describe('the deciders of orders, reports and alarms, as the command handler runs them', () => {
  it('order: create, then a transition the table allows or refuses', () => {
    const details = {
      id: 'sr-1',
      patientId: 'p1',
      intent: 'order' as const,
      priority: 'stat' as const,
      code: '2524-7',
      reason: null,
      requester: 'u',
      performer: 'Laboratory',
      note: null,
    };
    const created = fold(
      SERVICE_REQUEST_DECIDER,
      eventsOf(SERVICE_REQUEST_DECIDER.decide({ type: 'create', details, status: 'active' }, null)),
    );
    expect(created).toMatchObject({ id: 'sr-1', status: 'active', version: 1 });
    expect(SERVICE_REQUEST_DECIDER.decide({ type: 'activate' }, created)).toEqual(
      refused('illegal-transition', { from: 'active', to: 'active' }),
    );
    expect(SERVICE_REQUEST_DECIDER.decide({ type: 'hold' }, created)).toEqual(one('ServiceRequestPutOnHold', {}));
  });

  it('report: an uninterpretable result is refused after the existence and transition checks', () => {
    const details = {
      id: 'dr-1',
      patientId: 'p1',
      orderId: 'sr-1',
      code: '51990-0',
      identifier: { system: 's', value: 'v' },
      performer: 'Laboratory',
      effectiveAt: at,
      contentHash: 'h',
    };
    const results = [{ code: '2823-3', value: 4 }];
    const post = {
      type: 'post' as const,
      details,
      status: 'preliminary' as const,
      results,
      conclusion: null,
      by: 'lab',
      now: at,
      escalationSeconds: 900,
    };
    const report = fold(DIAGNOSTIC_REPORT_DECIDER, eventsOf(DIAGNOSTIC_REPORT_DECIDER.decide(post, null))) as DiagnosticReportState;
    const bad = [{ code: '0000-0', value: 1 }];
    const update = (status: 'final' | 'registered') => ({ ...post, type: 'update' as const, status, results: bad, contentHash: 'x' });
    const decide = DIAGNOSTIC_REPORT_DECIDER.decide;
    expect(decide(update('final'), null)).toEqual(refused('not-found'));
    expect(decide(update('registered'), report)).toEqual(refused('illegal-transition', { from: 'preliminary', to: 'registered' }));
    expect(decide(update('final'), report)).toMatchObject(refused('invalid-result', { index: 0 }));
    expect(decide({ ...post, results: bad }, null)).toMatchObject(refused('invalid-result', { index: 0 }));
  });

  it('alarm: a command on one alarm of the stream; evolve leaves the state it was given as it was', () => {
    const raised = {
      type: ALARM_EVENTS.raised,
      data: {
        alert_id: 'a1',
        rule: 'hr-high',
        state: 'raised',
        patient_id: 'p1',
        priority: 'high',
        latching: true,
        message: 'HR',
        value: 150,
        triggered_by: { device_id: 'd1', effective_at: at },
      },
    };
    const before = fold(PATIENT_ALARMS_DECIDER, [raised]);
    const by = { user: 'u1', client_id: 'app' };
    const acknowledge = (alarmId: string) => ({ type: 'acknowledge' as const, alarmId, by, now: at });
    expect(PATIENT_ALARMS_DECIDER.decide(acknowledge('a9'), before)).toEqual(refused('not-found'));
    const ack = eventsOf(PATIENT_ALARMS_DECIDER.decide(acknowledge('a1'), before));
    expect(ack).toEqual([{ type: ALARM_EVENTS.acknowledged, data: { alert_id: 'a1', patient_id: 'p1', rule: 'hr-high', by, at } }]);
    const after = fold(PATIENT_ALARMS_DECIDER, ack, before, before.version);
    expect(after.alarms.get('a1')).toMatchObject({ state: 'acknowledged', version: 2 });
    expect(before.alarms.get('a1')).toMatchObject({ state: 'raised', version: 1 });
    expect(before.version).toBe(1);
    expect(after).toEqual(
      foldAlarms([raised, ...ack].map((e, i) => ({ type: e.type, data: e.data as Record<string, unknown>, streamVersion: i + 1 }))),
    );
    expect(PATIENT_ALARMS_DECIDER.decide(acknowledge('a1'), after)).toMatchObject(refused('already-acknowledged'));
  });
});
