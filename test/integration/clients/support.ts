/**
 * Plumbing shared by the client-library tests: a real gateway plus an ingest worker (vitals posted
 * through the gateway go to Kafka, then PostgreSQL, as in production), a registered client holding
 * every scope, and a TCP proxy whose connections a test can cut to force a disconnect underneath a
 * live stream (the client sees a dropped socket, exactly as on a flaky network).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Admin } from 'kafkajs';
import type { Pool } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { createRedis } from '@vitalis/redis';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { createLiveStage, type LiveStage } from '../../../apps/ingest/src/live/stage';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import { slotsProjection } from '../../../apps/projector/src/projections/definitions';
import { TEST_TOPICS, testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { registerClient, type RegisteredClient } from '../../helpers/auth';
import { groupAtEnd, startTestIngest, testKafka, testPool, uid } from '../vitals/support';

export { uid };

export const ALL_SCOPES = [
  'read:patients',
  'write:patients',
  'read:appointments',
  'write:appointments',
  'read:vitals',
  'write:vitals',
  'read:diagnostics',
  'write:diagnostics',
] as const;

export interface ClientStack {
  gw: RunningGateway;
  pool: Pool;
  client: RegisteredClient;
  close: () => Promise<void>;
}

export async function startClientStack(name: string, overrides: Record<string, string> = {}): Promise<ClientStack> {
  const kafka = testKafka(`clients-${name}`);
  const admin: Admin = kafka.admin();
  await admin.connect();
  const pool = testPool();
  const gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000', ...overrides });
  const groupId = `vitalis-test-clients-${name}-${uid()}`;
  await groupAtEnd(admin, groupId, TEST_TOPICS.vitalsObservations);
  const live = await liveStage(pool);
  const worker: IngestWorker = await startTestIngest(kafka, pool, {
    topic: TEST_TOPICS.vitalsObservations,
    dlqTopic: TEST_TOPICS.vitalsDeadLetter,
    groupId,
    ...live.workerOptions,
  });
  const client = await registerClient(gw.url, [...ALL_SCOPES], `vitalis-client-test-${name}`);
  return {
    gw,
    pool,
    client,
    close: async () => {
      await gw.close();
      await worker.stop();
      await live.stop();
      await admin.disconnect();
      await pool.end();
    },
  };
}

/** The ingest's live stage (alerts + Redis fan-out after commit): live streams only see what a worker running it publishes. */
async function liveStage(pool: Pool): Promise<{ workerOptions: { afterCommit: LiveStage['afterCommit'] }; stop: () => Promise<void> }> {
  const redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-clients-live' });
  await redis.connect();
  const stage = createLiveStage({ pool, redis, topic: TEST_TOPICS.vitalsObservations, logger: createLogger('test-live', 'error') });
  return {
    workerOptions: { afterCommit: stage.afterCommit },
    stop: async () => {
      stage.stop();
      redis.disconnect();
    },
  };
}

/**
 * Free appointment slots for one fresh clinician (slots come from the seed or the domain service:
 * no HTTP endpoint creates them), projected so GET /api/v1/appointments lists them.
 */
export async function createTestSlots(gw: RunningGateway, count: number): Promise<string> {
  const clinician = `clin-clients-${uid()}`;
  const day = Date.UTC(2031, 5, 2, 9);
  for (let i = 0; i < count; i++) {
    const start = new Date(day + i * 1_800_000);
    await createSlot(gw.deps.pool, {
      clinicianId: clinician,
      appointmentType: 'consultation',
      start: start.toISOString(),
      end: new Date(start.getTime() + 1_800_000).toISOString(),
    });
  }
  // The projection reads only events older than every open transaction on the server (gap-safe),
  // so one catch-up may not see them yet: repeat until the slots are listed.
  const deadline = Date.now() + 45_000;
  for (;;) {
    await catchUp(gw.deps.pool, slotsProjection);
    const { rows } = await gw.deps.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rm_slots WHERE clinician_id = $1', [
      clinician,
    ]);
    if (rows[0]!.n === count) return clinician;
    if (Date.now() > deadline) throw new Error(`slots of ${clinician} not projected within 45 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A FHIR Patient registration body with a unique family name. */
export function patientBody(prefix: string) {
  return { resourceType: 'Patient', name: [{ family: `${prefix}${uid()}`, given: ['Ada'] }], birthDate: '1980-02-03', gender: 'female' };
}

/** Whether the running gateway serves this route (features landing from other branches). */
export function hasRoute(gw: RunningGateway, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string): boolean {
  return gw.app.hasRoute({ method, url });
}

export interface Proxy {
  url: string;
  /** Destroys every open connection (both directions); new connections are still accepted. */
  dropAll: () => number;
  close: () => Promise<void>;
}

/** A plain TCP forwarder to `target` (host:port). */
export async function startProxy(targetUrl: string): Promise<Proxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const server: Server = createServer((down) => {
    const up = connect(Number(target.port), target.hostname);
    for (const s of [down, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    down.pipe(up);
    up.pipe(down);
    down.on('close', () => up.destroy());
    up.on('close', () => down.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropAll: () => {
      const n = sockets.size;
      for (const s of sockets) s.destroy();
      return n;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A heart-rate observation with a given per-device seq. */
export function heartRate(patient: string, device: string, seq: number, at = new Date()) {
  return {
    patient_id: patient,
    device_id: device,
    seq,
    effective_at: at.toISOString(),
    code: '8867-4',
    value: 60 + (seq % 40),
    unit: '/min',
  };
}
