/**
 * Patient users may only read their own vitals. The OAuth plugin (which sets request.principal)
 * is not merged yet, so this test mounts the vitals routes with a stand-in onRequest hook that sets
 * the principal, exactly as the auth plugin will. Also: the routes' OpenAPI document builds.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { parseConfig } from '@vitalis/config';
import { problemDetails } from '@vitalis/http';
import { createLogger } from '@vitalis/log';
import type { Pool } from '@vitalis/db';
import { gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';
import type { GatewayDeps } from '../../../apps/gateway/src/deps';
import { vitalsRoutes } from '../../../apps/gateway/src/vitals/routes';
import type { Principal } from '../../../apps/gateway/src/access/principal';
import { startGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { testKafka, testPool, uid } from './support';

let pool: Pool;
const app = Fastify().withTypeProvider<ZodTypeProvider>();

beforeAll(async () => {
  pool = testPool();
  const config = withBaseUrl(parseConfig(gatewayConfigShape, { NODE_ENV: 'test', DATABASE_URL: testEnv.DATABASE_URL }));
  const deps = {
    config,
    pool,
    kafka: testKafka('vitals-access'),
    logger: createLogger('test', 'error'),
    redis: undefined,
  } as unknown as GatewayDeps;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(problemDetails, { baseUrl: config.baseUrl });
  app.addHook('onRequest', async (req) => {
    const patientId = req.headers['x-test-patient'];
    req.principal = {
      clientId: 'test-client',
      subject: typeof patientId === 'string' ? `user-${patientId}` : 'nurse-1',
      scopes: ['read:vitals', 'write:vitals'],
      roles: typeof patientId === 'string' ? ['patient'] : ['nurse'],
      ...(typeof patientId === 'string' ? { patientId } : {}),
      tokenId: 'jti-test',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
      authMethod: 'client_secret',
      derivedFrom: [],
      sandbox: false,
    } satisfies Principal;
  });
  await app.register(vitalsRoutes(deps));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await pool.end();
});

describe('vitals access for patient users', () => {
  const own = `pat-own-${uid()}`;
  const other = `pat-other-${uid()}`;
  const q = (patient: string) => `/api/v1/vitals?patient=${patient}&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`;

  it('a patient reads their own vitals, gets 403 for anyone else, and both are audited', async () => {
    const mine = await app.inject({ method: 'GET', url: q(own), headers: { 'x-test-patient': own } });
    expect(mine.statusCode).toBe(200);
    const theirs = await app.inject({ method: 'GET', url: q(other), headers: { 'x-test-patient': own } });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.headers['content-type']).toMatch(/^application\/problem\+json/); // RFC 9457 (ADR 0011)
    expect(theirs.json()).toMatchObject({ status: 403, title: 'Forbidden' });
    const latest = await app.inject({ method: 'GET', url: `/api/v1/patients/${other}/vitals/latest`, headers: { 'x-test-patient': own } });
    expect(latest.statusCode).toBe(403);
    const { rows } = await pool.query(
      'SELECT resource_id, outcome, actor_subject FROM audit_events WHERE resource_id = ANY($1) ORDER BY id',
      [[own, other]],
    );
    expect(rows).toEqual([
      { resource_id: own, outcome: 'success', actor_subject: `user-${own}` },
      { resource_id: other, outcome: 'failure', actor_subject: `user-${own}` },
      { resource_id: other, outcome: 'failure', actor_subject: `user-${own}` },
    ]);
  });

  it('a clinician (no patientId) reads any patient', async () => {
    const res = await app.inject({ method: 'GET', url: q(other) });
    expect(res.statusCode).toBe(200);
  });

  it('a patient user cannot publish vitals for another patient', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/vitals',
      headers: { 'x-test-patient': own },
      payload: {
        observations: [
          { patient_id: other, device_id: 'd1', seq: 1, effective_at: new Date().toISOString(), code: '8867-4', value: 70, unit: '/min' },
        ],
      },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('the gateway with the vitals routes renders its OpenAPI document', async () => {
    const gw = await startGateway();
    try {
      const doc = gw.app.swagger() as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/vitals', '/api/v1/patients/{id}/vitals/latest']));
    } finally {
      await gw.close();
    }
  });
});
