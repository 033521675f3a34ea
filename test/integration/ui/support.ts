/**
 * UI-card test plumbing: opening a card with a token in the URL fragment, producing synthetic
 * vitals (numerics and a 250 Hz ECG lead II), registering patients through the REST write path.
 */
import type { Page } from 'playwright-core';
import type { Scope } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import type { RunningGateway } from '../../helpers/gateway';
import type { Pool } from '@vitalis/db';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import { PROJECTIONS } from '../../../apps/projector/src/projections/definitions';
import { uid } from '../vitals/support';

export { uid };

export async function tokenFor(gw: RunningGateway, scopes: Scope[], name = 'vitalis-ui-test'): Promise<string> {
  return clientCredentialsToken(gw.url, await registerClient(gw.url, scopes, name));
}

export async function openCard(
  page: Page,
  gw: RunningGateway,
  card: string,
  fragment: Record<string, string>,
): Promise<number | undefined> {
  const res = await page.goto(`${gw.url}/ui/${card}#${new URLSearchParams(fragment)}`, { waitUntil: 'load' });
  return res?.status();
}

export async function api<T = any>(
  gw: RunningGateway,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Registers a patient through POST /api/v1/patients; returns its minted id and full name. */
export async function registerPatient(
  gw: RunningGateway,
  token: string,
  given: string,
  family: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await api<{ id: string }>(gw, token, 'POST', '/api/v1/patients', {
    resourceType: 'Patient',
    name: [{ family, given: [given] }],
    birthDate: '1958-04-12',
    gender: 'female',
    ...extra,
  });
  if (r.status !== 201) throw new Error(`register patient: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

const UNITS: Record<string, string> = {
  '8867-4': '/min',
  '59408-5': '%',
  '8480-6': 'mm[Hg]',
  '8462-4': 'mm[Hg]',
  '9279-1': '/min',
  '8310-5': 'Cel',
};

export function vital(patient: string, device: string, seq: number, at: Date, code: string, value: number) {
  return { patient_id: patient, device_id: device, seq, effective_at: at.toISOString(), code, value, unit: UNITS[code] };
}

/** One second of a synthetic lead II at 250 Hz (a PQRST complex per beat at 75 /min), in mV. */
export function ecgChunk(patient: string, device: string, seq: number, at: Date) {
  const g = (t: number, mu: number, sigma: number, a: number) => a * Math.exp(-((t - mu) ** 2) / (2 * sigma ** 2));
  const samples = Array.from({ length: 250 }, (_, i) => {
    const t = ((seq * 250 + i) * 0.004) % 0.8; // 0.8 s per beat
    const v = g(t, 0.16, 0.025, 0.15) + g(t, 0.3, 0.008, -0.12) + g(t, 0.33, 0.01, 1.3) + g(t, 0.36, 0.01, -0.3) + g(t, 0.56, 0.04, 0.32);
    return Math.round(v * 1000) / 1000;
  });
  return {
    patient_id: patient,
    device_id: device,
    seq,
    effective_at: at.toISOString(),
    code: '131330',
    unit: 'mV',
    waveform: { origin: 0, period_ms: 4, samples },
  };
}

/**
 * A projector for the test: catches the read models up every 200 ms, as the projector app does
 * (lists and the board read projections). Concurrent catch-ups are safe (checkpoint row lock).
 */
export function runProjections(pool: Pool): { stop: () => Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      for (const p of PROJECTIONS) await catchUp(pool, p).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
