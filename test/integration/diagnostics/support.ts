/** Shared by the diagnostics tests: role-bound clients, a fresh patient, an order, a report body. */
import type { Role, Scope } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import type { RunningGateway } from '../../helpers/gateway';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { caller, uid } from '../records/support';
import { DEMO_PASSWORDS, registerCodeClient, userTokens } from '../auth/support';

export { uid };
export const LOINC = 'http://loinc.org';
export const json = { 'content-type': 'application/json' };

/** `{authorization}` for a client of `role` holding `scopes`. */
export async function roleHeaders(gw: RunningGateway, role: Role, scopes: Scope[]): Promise<Record<string, string>> {
  const client = await registerClient(gw.url, scopes, `dx-${role}`, role);
  return { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}` };
}

/**
 * A signed-in demo user's token (authorization code + PKCE through the real login and consent
 * pages) for an app of the user's role holding `scopes`: a token that names the user, as a
 * clinician's app has. Also the app's client id (what the acknowledgement records as the app used).
 */
export async function userSession(
  gw: RunningGateway,
  username: 'doctor' | 'nurse',
  scopes: Scope[],
): Promise<{ token: string; headers: Record<string, string>; clientId: string }> {
  const app = await registerCodeClient(gw.url, scopes, { role: username, name: `Ward app (${username}) <test>` });
  const { tokens } = await userTokens(gw.url, app, username, DEMO_PASSWORDS[username], scopes.join(' '));
  if (!tokens.access_token) throw new Error(`${username} did not sign in`);
  return { token: tokens.access_token, headers: { authorization: `Bearer ${tokens.access_token}` }, clientId: app.client_id };
}

export async function newPatient(gw: RunningGateway): Promise<string> {
  return (await registerPatient(gw.deps.pool, caller({ scopes: ['write:patients'] }), { family: `Dx${uid()}`, given: ['Lab'] })).id;
}

export const orderBody = (patientId: string, code = '51990-0', extra: Record<string, unknown> = {}) => ({
  resourceType: 'ServiceRequest',
  intent: 'order',
  priority: 'stat',
  subject: { reference: `Patient/${patientId}` },
  code: { coding: [{ system: LOINC, code }] },
  reasonCode: [{ text: 'chest pain' }],
  ...extra,
});

export const quantityObs = (code: string, value: number, unit: string) => ({
  resourceType: 'Observation',
  code: { coding: [{ system: LOINC, code }] },
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});

export const reportBody = (
  orderId: string,
  status: string,
  contained: unknown[],
  accession = `ACC-${uid()}`,
  extra: Record<string, unknown> = {},
) => ({
  resourceType: 'DiagnosticReport',
  status,
  identifier: [{ system: 'urn:vitalis-test:accession', value: accession }],
  basedOn: [{ reference: `ServiceRequest/${orderId}` }],
  contained,
  ...extra,
});

export function api(gw: RunningGateway) {
  return async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; body: any; etag: string | null }> => {
    const res = await fetch(`${gw.url}/api/v1/diagnostics${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, ...json },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, etag: res.headers.get('etag') };
  };
}
