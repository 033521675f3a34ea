/**
 * resources/read scope bypass (issue 18 finding 2), with the MCP SDK client against a real gateway:
 * the SDK parses a resource URI with `new URL` (scheme lower-cased, spaces and control characters
 * dropped) before picking the resource, so `VITALIS://…` or ` vitalis://…` reached the patient
 * vitals handler while the HTTP gate, matching the raw text, asked for no scope. Each variant is now
 * refused to a token without read:vitals, unknown schemes are refused, a patient user reads no other
 * patient's resource, and the normal read still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@vitalis/db';
import { writeRows } from '../../../apps/ingest/src/store';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { pkcePair, REDIRECT_URI, registerCodeClient, signInAndConsent } from '../auth/support';
import { uid } from '../vitals/support';
import { connect, rawInitialize, rpc, rpcResult, tokenFor, type Connected } from './support';

let gw: RunningGateway;
let reader: string;
let noVitals: string;
const patient = `pat-res-${uid()}`;
const uriOf = (id: string) => `vitalis://patients/${id}/vitals`;

beforeAll(async () => {
  gw = await startGateway();
  reader = (await tokenFor(gw.url, ['read:vitals'])).token;
  noVitals = (await tokenFor(gw.url, ['read:patients', 'read:appointments'])).token;
  await withTransaction(gw.deps.pool, (c) =>
    writeRows(c, `vitals.test.resources.${uid()}`, [
      {
        patient_id: patient,
        device_id: `${patient}-dev`,
        seq: 1,
        code: '8867-4',
        effective_at: new Date().toISOString(),
        value: 72,
        unit: '/min',
        sample_period_ms: null,
        steps: null,
        kafka_partition: 0,
        kafka_offset: '1',
      },
    ]),
  );
});
afterAll(async () => {
  await gw?.close();
});

async function withClient<T>(token: string | undefined, fn: (c: Connected) => Promise<T>): Promise<T> {
  const c = await connect(gw.url, token);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

/** A patient user's token (the demo user linked to pat-0001), through the real login and consent. */
async function patientUserToken(): Promise<string> {
  const client = await registerCodeClient(gw.url, ['read:appointments', 'write:appointments'], { public: true });
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'read:appointments write:appointments',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: uid(),
  })) {
    url.searchParams.set(k, v);
  }
  const { location } = await signInAndConsent(url, 'patient');
  const res = await fetch(`${gw.url}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      code_verifier: verifier,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('resources/read of patient vitals', () => {
  it('the normal read works with read:vitals, and is audited', async () => {
    await withClient(reader, async (c) => {
      const { contents } = await c.client.readResource({ uri: uriOf(patient) });
      expect(contents[0]).toMatchObject({ uri: uriOf(patient), mimeType: 'application/json' });
      expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({
        patient_id: patient,
        count: 1,
        observations: [{ seq: 1, value: 72 }],
      });
    });
    const { rows } = await gw.deps.pool.query(
      "SELECT action, outcome FROM audit_events WHERE resource_id = $1 AND action LIKE 'vitals.%' ORDER BY id",
      [patient],
    );
    expect(rows).toEqual([{ action: 'vitals.read_latest', outcome: 'success' }]);
  });

  it('an upper-case scheme, a leading space or a control character does not skip the scope: refused to a token without read:vitals', async () => {
    for (const uri of [
      `VITALIS://patients/${patient}/vitals`,
      ` ${uriOf(patient)}`,
      `\t${uriOf(patient)}`,
      `vita\nlis://patients/${patient}/vitals`,
      `ViTaLiS://patients/${patient}/vitals `,
    ]) {
      await withClient(noVitals, async (c) => {
        await expect(c.client.readResource({ uri }), JSON.stringify(uri)).rejects.toThrow(/403|insufficient_scope|Forbidden/i);
      });
    }
    // the same variants with read:vitals read the same (normalised) resource
    await withClient(reader, async (c) => {
      const { contents } = await c.client.readResource({ uri: ` VITALIS://patients/${patient}/vitals` });
      expect(contents[0]).toMatchObject({ uri: uriOf(patient) });
    });
    const { rows } = await gw.deps.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1 AND action = 'vitals.read_latest' AND outcome = 'success'",
      [patient],
    );
    expect(rows[0].n).toBe(2); // the normal read and the normalised one; none for the refused variants
  });

  it('percent-encoded variants name no resource: refused (403 without read:vitals, an error with it)', async () => {
    const variants = [
      `vitalis://patients/${patient.replace('-', '%2D')}/vitals`,
      `vitalis://%70atients/${patient}/vitals`,
      `VITALIS://patients/${patient.replaceAll('-', '%2d')}/vitals`,
      `vitalis://patients/${patient}%2Fvitals`,
    ];
    for (const uri of variants) {
      await withClient(noVitals, async (c) => {
        await expect(c.client.readResource({ uri }), uri).rejects.toThrow(/403|insufficient_scope|Forbidden/i);
      });
      await withClient(reader, async (c) => {
        await expect(c.client.readResource({ uri }), uri).rejects.toThrow(/not found|Not a patient-vitals resource/i);
      });
    }
  });

  it('an unknown scheme is refused (400 JSON-RPC error) with or without a token', async () => {
    const sid = await rawInitialize(gw.url);
    for (const uri of [
      'file:///etc/passwd',
      `https://example.org/patients/${patient}/vitals`,
      `vitalis+x://patients/${patient}/vitals`,
      'not a uri',
    ]) {
      for (const headers of [{}, { authorization: `Bearer ${reader}` }] as Record<string, string>[]) {
        const res = await rpc(gw.url, { id: 7, method: 'resources/read', params: { uri } }, { 'mcp-session-id': sid, ...headers });
        expect(res.status, uri).toBe(400);
        expect(await rpcResult(res), uri).toMatchObject({
          error: { code: -32602, message: expect.stringMatching(/unknown resource scheme|not a URI/) },
        });
      }
    }
    await withClient(reader, async (c) => {
      await expect(c.client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/unknown resource scheme/);
    });
  });

  it("a patient user reads no patient resource without read:vitals, and never another patient's, however the URI is spelled", async () => {
    const token = await patientUserToken();
    for (const uri of [
      uriOf('pat-0002'),
      'VITALIS://patients/pat-0002/vitals',
      ' vitalis://patients/pat-0002/vitals',
      'VITALIS://patients/pat-0001/vitals',
      uriOf('pat-0001'),
    ]) {
      await withClient(token, async (c) => {
        await expect(c.client.readResource({ uri }), uri).rejects.toThrow(/403|insufficient_scope|Forbidden/i);
      });
    }
  });

  it('resources/subscribe: the same gate, and only the canonical form', async () => {
    await withClient(noVitals, async (c) => {
      await expect(c.client.subscribeResource({ uri: `VITALIS://patients/${patient}/vitals` })).rejects.toThrow(
        /403|insufficient_scope|Forbidden/i,
      );
    });
    await withClient(reader, async (c) => {
      await expect(c.client.subscribeResource({ uri: ` VITALIS://patients/${patient}/vitals` })).rejects.toThrow(
        /Only vitalis:\/\/patients/,
      );
      await c.client.subscribeResource({ uri: uriOf(patient) });
      await c.client.unsubscribeResource({ uri: uriOf(patient) });
    });
  });

  it('the ui:// cards stay public', async () => {
    await withClient(undefined, async (c) => {
      const { contents } = await c.client.readResource({ uri: 'UI://vitalis/vitals-telemetry-monitor' });
      expect(contents[0]).toMatchObject({ uri: 'ui://vitalis/vitals-telemetry-monitor', mimeType: 'text/html;profile=mcp-app' });
    });
  });
});
