/**
 * Security finding 4: a patient user reads its own record only through the SMART patient/ scopes
 * it consented to (patient/Patient.rs, patient/AllergyIntolerance.rs), never another patient's, and
 * never the event history (clinical readers only). Over real HTTP, with the demo patient user
 * (linked to pat-0001) signing in through the real login and consent pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { DEMO_PASSWORDS, registerCodeClient, userTokens } from './support';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
  await seedRecords(gw.deps.pool, new Date()); // pat-0001, pat-0002 (idempotent)
});
afterAll(() => gw?.close());

const get = async (path: string, token: string) => fetch(`${gw.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });

async function patientToken(scope: string): Promise<{ token: string; granted: string; consentHtml: string }> {
  const app = await registerCodeClient(gw.url, scope.split(' ') as never, { role: 'patient' });
  const { tokens, consentHtml } = await userTokens(gw.url, app, 'patient', DEMO_PASSWORDS.patient, scope);
  return { token: tokens.access_token, granted: tokens.scope, consentHtml };
}

describe('a patient user and their own record', () => {
  it('with the appointment scopes only: no record, no history, bookings still work', async () => {
    const { token } = await patientToken('read:appointments write:appointments');
    expect((await get('/patients/pat-0001', token)).status).toBe(403);
    expect((await get('/patients/pat-0001/history', token)).status).toBe(403);
    expect((await get('/patients?name=a', token)).status).toBe(403);
    expect((await get('/appointments?patient=pat-0001', token)).status).toBe(200);
  });

  it('with patient/Patient.rs: its demographics; with patient/AllergyIntolerance.rs too: its allergies; never another patient, never the history', async () => {
    const demo = await patientToken('read:appointments patient/Patient.rs');
    expect(demo.granted).toBe('read:appointments patient/Patient.rs');
    expect(demo.consentHtml).toContain('patient/Patient.rs');
    const own = await get('/patients/pat-0001', demo.token);
    expect(own.status).toBe(200);
    const ownBody = (await own.json()) as Record<string, unknown>;
    expect(JSON.stringify(ownBody)).not.toContain('AllergyIntolerance');

    const full = await patientToken('patient/Patient.rs patient/AllergyIntolerance.rs');
    expect((await get('/patients/pat-0001', full.token)).status).toBe(200);
    expect((await get('/patients/pat-0002', full.token)).status).toBe(403);
    expect((await get('/patients/pat-0001/history', full.token)).status).toBe(403);
    const search = (await (await get('/patients', full.token)).json()) as { entry: { resource: { id: string } }[] };
    expect(search.entry.map((e) => e.resource.id)).toEqual(['pat-0001']);
  });

  it('a role without the patient/ scopes cannot obtain them: a nurse asking for them gets none', async () => {
    const app = await registerCodeClient(gw.url, ['patient/Patient.rs', 'read:patients'] as never, { role: 'system' });
    const { tokens } = await userTokens(gw.url, app, 'nurse', DEMO_PASSWORDS.nurse, 'patient/Patient.rs read:patients');
    expect(tokens.scope).toBe('read:patients');
  });
});
