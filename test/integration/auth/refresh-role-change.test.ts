/**
 * Issue 30 hole 3 over real HTTP: a refresh never outlives a role change. A nurse signs in through
 * a nurse-role app (read:patients, read:vitals); an operator then re-approves the app as
 * `reception` with read:appointments only. The refresh token of the earlier sign-in used to keep
 * yielding read:patients read:vitals (a FHIR Observation read: 200) for its 30 days; a refresh now
 * grants at most requested ∩ the grant ∩ the client's current registration and role ∩ the user's role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { registerCodeClient, userTokens } from './support';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const refresh = async (client: { client_id: string; client_secret?: string }, token: string) => {
  const res = await fetch(`${gw.url}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: client.client_id,
      client_secret: client.client_secret!,
    }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { access_token?: string; refresh_token?: string; scope?: string; error?: string },
  };
};

describe('a refresh after the app was re-approved with another role', () => {
  it('yields only what the app holds now: no read:patients or read:vitals, and FHIR Observation is refused', async () => {
    const client = await registerCodeClient(gw.url, ['read:patients', 'read:vitals', 'read:appointments', 'openid'], {
      role: 'nurse',
      name: 'Ward App (role change)',
    });
    const { tokens } = await userTokens(gw.url, client, 'nurse', 'nurse-demo-pass', 'read:patients read:vitals read:appointments openid');
    expect(tokens.scope.split(' ').sort()).toEqual(['openid', 'read:appointments', 'read:patients', 'read:vitals']);
    const before = await fetch(`${gw.url}/fhir/R4/Observation?patient=pat-0001&code=8867-4`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(before.status).toBe(200);

    // the operator narrows the app: reception, read:appointments
    await approveClient(gw.url, client.client_id, 'reception', 'read:appointments');

    const after = await refresh(client, tokens.refresh_token);
    expect(after.status).toBe(200);
    expect(after.body.scope?.split(' ').sort()).toEqual(['read:appointments']);
    const read = await fetch(`${gw.url}/fhir/R4/Observation?patient=pat-0001&code=8867-4`, {
      headers: { authorization: `Bearer ${after.body.access_token}` },
    });
    expect(read.status).toBe(403);
    const patients = await fetch(`${gw.url}/api/v1/patients/pat-0001`, { headers: { authorization: `Bearer ${after.body.access_token}` } });
    expect(patients.status).toBe(403);
  });
});
