/** Pure folds and helpers of the event-sourced records. */
import { describe, expect, it } from 'vitest';
import { appointmentId, foldPatient, foldSlot, foldTriage, parseAppointmentId } from '@vitalis/records';
import { expectedFromIfMatch, patientView } from '../../../apps/gateway/src/access/caller';
import type { Principal } from '../../../apps/gateway/src/access/principal';

let v = 0;
const ev = (type: string, data: Record<string, unknown>) => ({
  type,
  data,
  streamVersion: ++v,
  recordedAt: `2030-01-01T00:00:0${v % 10}.000Z`,
});

describe('folds', () => {
  it('patient: register, update, allergies, and foreign events only bump the version', () => {
    v = 0;
    const p = foldPatient([
      ev('PatientRegistered', { patientId: 'pat-1', family: 'A', given: ['B'], birthDate: '1990-01-01' }),
      ev('PatientUpdated', { family: 'C' }),
      ev('AllergyRecorded', { id: 'alg-1', substance: 'Latex', criticality: 'low' }),
      ev('AllergyRecorded', { id: 'alg-2', substance: 'Nuts', criticality: 'high' }),
      ev('AllergyRemoved', { id: 'alg-1' }),
      ev('VitalsAlertRaised', { code: '8867-4' }),
    ])!;
    expect(p).toMatchObject({ id: 'pat-1', version: 6, family: 'C', given: ['B'], birthDate: '1990-01-01', gender: null });
    expect(p.allergies.map((a) => a.id)).toEqual(['alg-2']);
    expect(foldPatient([ev('VitalsAlertRaised', {})])).toBeNull();
  });

  it('slot: booked, cancelled, rebooked', () => {
    v = 0;
    const s = foldSlot([
      ev('SlotCreated', { slotId: 's1', clinicianId: 'c', appointmentType: 't', start: 'a', end: 'b' }),
      ev('AppointmentBooked', { appointmentId: 's1.2', patientId: 'p1' }),
      ev('AppointmentCancelled', { appointmentId: 's1.2' }),
    ])!;
    expect(s).toMatchObject({ status: 'free', patientId: null, version: 3 });
    expect(appointmentId('s1', 4)).toBe('s1.4');
    expect(parseAppointmentId('clin-001-203001011000.12')).toEqual({ slotId: 'clin-001-203001011000', version: 12 });
    expect(parseAppointmentId('nope')).toBeUndefined();
  });

  it('triage: arrival, level change, discharge', () => {
    v = 0;
    const t = foldTriage([ev('PatientArrived', { patientId: 'p', esi: 4, complaint: 'x' }), ev('TriageLevelSet', { esi: 2 })])!;
    expect(t).toMatchObject({ esi: 2, complaint: 'x', present: true });
    expect(foldTriage([ev('PatientArrived', { patientId: 'p', esi: 4, complaint: 'x' }), ev('PatientDischarged', {})])!.present).toBe(
      false,
    );
  });
});

describe('access helpers', () => {
  // a system-role principal unless a test names a role: the access policy decides by scope and patient link here
  const principal = (p: Partial<Principal>) => ({ scopes: [], roles: ['system'], sandbox: false, ...p }) as unknown as Principal;
  it('patient views by scope and patient link', () => {
    expect(patientView(principal({ scopes: ['read:patients'] }), 'p1')).toBe('clinical');
    expect(patientView(principal({ scopes: ['write:patients'] }), 'p1')).toBe('demographics');
    expect(patientView(principal({ scopes: ['read:appointments'] }), 'p1')).toBe('none');
    expect(patientView(principal({ scopes: ['read:patients'], patientId: 'p2' }), 'p1')).toBe('none');
    // A patient user: its own record only, and only through the SMART patient/ scopes (security finding 4).
    expect(patientView(principal({ patientId: 'p1' }), 'p1')).toBe('none');
    expect(patientView(principal({ patientId: 'p1', scopes: ['patient/Patient.rs'] }), 'p1')).toBe('demographics');
    expect(patientView(principal({ patientId: 'p1', scopes: ['patient/Patient.rs', 'patient/AllergyIntolerance.rs'] }), 'p1')).toBe(
      'clinical',
    );
    expect(patientView(principal({ patientId: 'p2', scopes: ['patient/Patient.rs', 'patient/AllergyIntolerance.rs'] }), 'p1')).toBe('none');
    // and by role: reception registers patients (demographics), a device reaches none, whatever it holds
    expect(patientView(principal({ roles: ['reception'], scopes: ['write:patients', 'read:patients'] }), 'p1')).toBe('demographics');
    expect(patientView(principal({ roles: ['device'], scopes: ['read:patients'] }), 'p1')).toBe('none');
  });
  it('If-Match parsing: required → 428, malformed → 412, strong/weak/star accepted', () => {
    expect(() => expectedFromIfMatch(undefined, true)).toThrow(expect.objectContaining({ status: 428 }));
    expect(expectedFromIfMatch(undefined, false)).toBeUndefined();
    expect(() => expectedFromIfMatch('abc', false)).toThrow(expect.objectContaining({ status: 412 }));
    expect(expectedFromIfMatch('"3"', true)).toBe(3);
    expect(expectedFromIfMatch('W/"4"', true)).toBe(4);
    expect(expectedFromIfMatch('*', true)).toBe('*');
  });
});
