/**
 * Shared by the alarm tests: alarms made the way the ingest makes them (appendAlertEvent into the
 * patient's alert stream, with a live position), a fresh patient, and tokens: signed-in users
 * (authorization code through the real login and consent pages) and apps acting for themselves
 * (client credentials).
 */
import { randomUUID } from 'node:crypto';
import { escalationDueAt, DEFAULT_ALARM_SETTINGS, type AlarmRule } from '@vitalis/clinical';
import { appendAlertEvent, type AlertData } from '@vitalis/live';
import type { AlarmClearedData, AlarmRaisedData } from '@vitalis/records';
import type { Role, Scope } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import type { RunningGateway } from '../../helpers/gateway';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { caller, uid } from '../records/support';
import { userTokenFor } from '../mcp/support';

export { uid };
export const json = { 'content-type': 'application/json' };

export async function newPatient(gw: RunningGateway): Promise<string> {
  return (await registerPatient(gw.deps.pool, caller({ scopes: ['write:patients'] }), { family: `Alarm${uid()}`, given: ['Bed'] })).id;
}

export interface SignedIn {
  headers: { authorization: string };
  token: string;
  /** The app the user signed in with. */
  clientId: string;
}

/** A signed-in demo user (the token names the user: authorization code through the login and consent pages). */
export async function signIn(gw: RunningGateway, user: 'doctor' | 'nurse', scopes: Scope[] = ['read:vitals']): Promise<SignedIn> {
  const { token, clientId } = await userTokenFor(gw.url, user, scopes, `Alarm ward app ${user} <test>`);
  return { headers: { authorization: `Bearer ${token}` }, token, clientId };
}

/** An app of `role` acting for itself (client credentials: the token names no user). */
export async function appHeaders(gw: RunningGateway, role: Role, scopes: Scope[] = ['read:vitals']): Promise<{ authorization: string }> {
  const client = await registerClient(gw.url, scopes, `alarm-app-${role}`, role);
  return { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}` };
}

let offset = 9_000_000 + Math.floor(Math.random() * 1_000_000);
let seq = 1;

export interface Raised {
  id: string;
  rule: AlarmRule;
  raisedAt: string;
}

/**
 * A raise as the ingest appends it (priority, kind, latching, label and due time from the default
 * alarm table unless given), at `raisedAt` (default: now).
 */
export async function raise(
  gw: RunningGateway,
  patient: string,
  rule: AlarmRule,
  o: { raisedAt?: string; value?: number; latching?: boolean; device?: string } = {},
): Promise<Raised> {
  const c = DEFAULT_ALARM_SETTINGS.conditions[rule];
  const raisedAt = o.raisedAt ?? new Date().toISOString();
  const id = randomUUID();
  const data: AlarmRaisedData & { label: string; flag: Record<string, unknown> } = {
    alert_id: id,
    rule,
    state: 'raised',
    patient_id: patient,
    priority: c.priority,
    severity: c.priority,
    kind: c.kind,
    latching: o.latching ?? c.latching,
    label: c.label,
    message: `${c.label}: ${o.value ?? 85}`,
    value: o.value ?? 85,
    due_at: escalationDueAt(DEFAULT_ALARM_SETTINGS, c.priority, raisedAt),
    triggered_by: {
      device_id: o.device ?? `mon-${patient}`,
      seq: seq++,
      code: '59408-5',
      effective_at: raisedAt,
      partition: 0,
      offset: ++offset,
    },
    flag: { resourceType: 'Flag', status: 'active' },
  };
  await appendAlertEvent(gw.deps.pool, { data: data as unknown as AlertData, position: { partition: 0, offset, k: 1 } });
  return { id, rule, raisedAt };
}

/** The condition of `rule` ended (closes its open alarm), at `at` (default: now). */
export async function clear(
  gw: RunningGateway,
  patient: string,
  rule: AlarmRule,
  at = new Date().toISOString(),
  device = `mon-${patient}`,
): Promise<void> {
  const data: AlarmClearedData & {
    triggered_by: AlarmClearedData['triggered_by'] & { seq: number; code: string; partition: number; offset: number };
    flag: Record<string, unknown>;
  } = {
    alert_id: randomUUID(),
    rule,
    state: 'cleared',
    patient_id: patient,
    message: `${rule} ended`,
    value: 95,
    triggered_by: { device_id: device, seq: seq++, code: '59408-5', effective_at: at, partition: 0, offset: ++offset },
    flag: { resourceType: 'Flag', status: 'inactive' },
  };
  await appendAlertEvent(gw.deps.pool, { data: data as unknown as AlertData, position: { partition: 0, offset, k: 1 } });
}

/** JSON over HTTP against the gateway. */
export function api(gw: RunningGateway) {
  return async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; body: any; contentType: string | null }> => {
    const res = await fetch(`${gw.url}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, ...json },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, contentType: res.headers.get('content-type') };
  };
}
