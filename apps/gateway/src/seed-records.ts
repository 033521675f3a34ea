/**
 * Idempotent demo seed through the event store (the same services the API uses): patients
 * pat-0001 ... pat-0020 (the simulator streams vitals for them; pat-0001 is the demo patient
 * user), free appointment slots for the catalog clinicians on weekdays of the next three weeks,
 * and a few ED arrivals. Re-running appends nothing for records that exist.
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { ConcurrencyError } from '@vitalis/eventstore';
import { HttpProblem } from '@vitalis/http';
import type { Principal } from './access/principal';
import { CLINICIANS } from './catalog/data';
import { createSlot } from './appointments/service';
import { registerPatient } from './patients/service';
import { admitPatient } from './triage/service';
import type { Caller } from './access/caller';

const FAMILIES = [
  'Okonkwo',
  'Schmidt',
  'Garcia',
  'Nguyen',
  'Kowalski',
  'Haddad',
  'Silva',
  'Andersen',
  'Rossi',
  'Tanaka',
  'Dubois',
  'Mensah',
  'Petrov',
  'Murphy',
  'Kaur',
  'Ito',
  'Novak',
  'Costa',
  'Fischer',
  'Ahmed',
];
const GIVEN = [
  'Grace',
  'Jonas',
  'Lucia',
  'Minh',
  'Anna',
  'Omar',
  'Beatriz',
  'Erik',
  'Giulia',
  'Haruto',
  'Claire',
  'Kwame',
  'Ivan',
  'Siobhan',
  'Priya',
  'Yui',
  'Tomas',
  'Ines',
  'Lena',
  'Yusuf',
];

const system: Caller = {
  principal: {
    clientId: 'vitalis-seed',
    subject: 'vitalis-seed',
    scopes: ['write:patients', 'read:patients', 'write:triage'],
    roles: ['system'],
    tokenId: 'seed',
    expiresAt: 0,
    authMethod: 'client_secret',
    derivedFrom: [],
    sandbox: false,
  } satisfies Principal,
};

const existsAlready = (err: unknown) => err instanceof ConcurrencyError || (err instanceof HttpProblem && err.status === 409);

export async function seedRecords(
  pool: Pool,
  now = new Date(),
): Promise<{ patients: number; slots: number }> /* new patients, slots ensured */ {
  let patients = 0;
  for (let i = 0; i < 20; i++) {
    const id = `pat-${String(i + 1).padStart(4, '0')}`;
    try {
      await registerPatient(
        pool,
        system,
        {
          family: must(FAMILIES[i], `family name ${i} of the seed`),
          given: [must(GIVEN[i], `given name ${i} of the seed`)],
          birthDate: `${1940 + i * 3}-0${(i % 9) + 1}-1${i % 10}`,
          gender: i % 2 ? 'male' : 'female',
          identifiers: [{ system: 'urn:vitalis:mrn', value: `MRN-${1000 + i}` }],
        },
        { id },
      );
      patients++;
    } catch (err) {
      if (!existsAlready(err)) throw err;
    }
  }
  let slots = 0;
  const day0 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let d = 1; d <= 21; d++) {
    const day = new Date(day0 + d * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    for (const c of CLINICIANS) {
      for (let h = 0; h < 6; h++) {
        const start = new Date(day.getTime() + 9 * 3_600_000 + h * 1_800_000);
        const slotId = `${c.id}-${start.toISOString().slice(0, 16).replace(/[-:T]/g, '')}`;
        await createSlot(
          pool,
          {
            slotId,
            clinicianId: c.id,
            appointmentType: 'consultation',
            start: start.toISOString(),
            end: new Date(start.getTime() + 1_800_000).toISOString(),
          },
          { actor: 'vitalis-seed' },
        );
        slots++;
      }
    }
  }
  for (const [id, esi, complaint] of [
    ['pat-0003', 2, 'chest pain'],
    ['pat-0007', 3, 'shortness of breath'],
    ['pat-0012', 4, 'ankle injury'],
  ] as const) {
    await admitPatient(pool, system, { patientId: id, esi, complaint }).catch((err) => {
      if (!existsAlready(err)) throw err;
    });
  }
  return { patients, slots };
}
