/**
 * Issue 30 hole 5 over real HTTP: FHIR Subscriptions are bounded. An identical Subscription of the
 * same client is not stored twice (200 with the existing one; one client created 30 identical ones,
 * all 201, before), and a client holds at most FHIR_SUBSCRIPTIONS_PER_CLIENT (422 beyond, audited).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

const IG = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
const VITALS_TOPIC = 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals';
let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway({ FHIR_SUBSCRIPTIONS_PER_CLIENT: '3' });
});
afterAll(() => gw.close());

const subscription = (patient: string, codes = 'http://loinc.org|8867-4') => ({
  resourceType: 'Subscription',
  status: 'requested',
  reason: `Watch ${randomUUID()}`,
  criteria: VITALS_TOPIC,
  _criteria: {
    extension: [{ url: `${IG}/backport-filter-criteria`, valueString: `Observation?patient=Patient/${patient}&code=${codes}` }],
  },
  channel: {
    type: 'websocket',
    payload: 'application/fhir+json',
    _payload: { extension: [{ url: `${IG}/backport-payload-content`, valueCode: 'full-resource' }] },
  },
});

async function bearer(): Promise<Record<string, string>> {
  const client = await registerClient(gw.url, ['read:vitals'], 'subscription-limits');
  return { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}`, 'content-type': 'application/fhir+json' };
}
const create = async (headers: Record<string, string>, body: unknown) => {
  const res = await fetch(`${gw.url}/fhir/R4/Subscription`, { method: 'POST', headers, body: JSON.stringify(body) });
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: (await res.json()) as { id?: string; resourceType: string; issue?: { diagnostics?: string }[] },
  };
};

describe('FHIR Subscriptions per client', () => {
  it('an identical Subscription is answered with the existing one, never stored twice', async () => {
    const headers = await bearer();
    const patient = `pat-sublimit-${randomUUID().slice(0, 8)}`;
    const first = await create(headers, subscription(patient));
    expect(first.status).toBe(201);
    const again = await Promise.all(Array.from({ length: 10 }, () => create(headers, subscription(patient))));
    for (const r of again) {
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(first.body.id);
      expect(r.location).toBe(first.location);
    }
    // the same codes in another order are the same Subscription
    expect((await create(headers, subscription(patient, 'http://loinc.org|8867-4,http://loinc.org|59408-5'))).status).toBe(201);
    expect((await create(headers, subscription(patient, 'http://loinc.org|59408-5,http://loinc.org|8867-4'))).status).toBe(200);
    const { rows } = await gw.deps.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM fhir_subscriptions WHERE patient_id = $1', [
      patient,
    ]);
    expect(rows[0]!.n).toBe(2);
  });

  it('a client holds at most the configured number: the next is 422 and audited; another client is not affected', async () => {
    const headers = await bearer();
    const tag = randomUUID().slice(0, 8);
    const made = await Promise.all(Array.from({ length: 5 }, (_, i) => create(headers, subscription(`pat-subcap-${tag}-${i}`))));
    expect(made.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = made.filter((r) => r.status === 422);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.body.resourceType).toBe('OperationOutcome');
    const { rows } = await gw.deps.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'fhir.subscription.create' AND outcome = 'failure' AND resource_id LIKE $1",
      [`pat-subcap-${tag}-%`],
    );
    expect(rows[0]!.n).toBe(2);
    // deleting one makes room again
    const id = made.find((r) => r.status === 201)!.body.id!;
    expect(
      (await fetch(`${gw.url}/fhir/R4/Subscription/${id}`, { method: 'DELETE', headers: { authorization: headers.authorization! } }))
        .status,
    ).toBeLessThan(300);
    expect((await create(headers, subscription(`pat-subcap-${tag}-x`))).status).toBe(201);
    expect((await create(await bearer(), subscription(`pat-subcap-${tag}-y`))).status).toBe(201);
  });
});
