/**
 * Audit integrity, first half (security issue 18, finding 11), over real connections: the apps'
 * role vitalis_app (migration 0013) may append to the audit trail and read it, and nothing else:
 * TRUNCATE, DELETE, UPDATE, DISABLE TRIGGER and DROP are refused by PostgreSQL itself (42501). A
 * real gateway, ingest and partition maintenance run under it. Request ids are the server's, so two
 * requests naming the same x-request-id leave two audit rows with different ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import { AppRoleError, appRoleRisks, assertAppDatabase, createPool, type Pool } from '@vitalis/db';
import { maintainPartitions } from '../../../apps/projector/src/maintenance';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { APP_ROLE, testEnv } from '../../helpers/env';
import { countStored, numeric, privateTopics, startTestIngest, testKafka, uid, waitFor } from '../vitals/support';

let owner: Pool;
let app: Pool;
beforeAll(() => {
  owner = createPool({ url: testEnv.DATABASE_URL, max: 2, application: 'vitalis-test-owner' });
  app = createPool({ url: testEnv.APP_DATABASE_URL, max: 4, application: 'vitalis-test-app-role' });
});
afterAll(async () => {
  await app?.end();
  await owner?.end();
});

/**
 * Runs `sql` as the app role inside a transaction that is always rolled back, so a statement that
 * wrongly succeeded (TRUNCATE, DROP) still changes nothing in the shared database; returns its error.
 */
async function asAppRolledBack(sql: string): Promise<{ code?: string; message: string } | undefined> {
  const client = await app.connect();
  try {
    await client.query('BEGIN');
    await client.query(sql);
    return undefined;
  } catch (err) {
    return err as { code?: string; message: string };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}

const INSUFFICIENT_PRIVILEGE = '42501';

describe('the app role on the audit trail', () => {
  it('is vitalis_app: not a superuser, not the owner of audit_events', async () => {
    expect((await app.query('SELECT current_user AS who')).rows[0].who).toBe(APP_ROLE);
    expect(await appRoleRisks(app)).toEqual([]);
    const { rows } = await owner.query(`SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'audit_events'::regclass`);
    expect(rows[0].owner).not.toBe(APP_ROLE);
  });

  it.each([
    ['TRUNCATE', 'TRUNCATE audit_events'],
    ['DELETE', "DELETE FROM audit_events WHERE action = 'test.least-privilege'"],
    ['UPDATE', "UPDATE audit_events SET outcome = 'failure' WHERE action = 'test.least-privilege'"],
    ['DISABLE TRIGGER', 'ALTER TABLE audit_events DISABLE TRIGGER ALL'],
    ['DROP TABLE', 'DROP TABLE audit_events'],
    ['TRUNCATE of the event store', 'TRUNCATE events'],
    ['DISABLE TRIGGER of the event store', 'ALTER TABLE events DISABLE TRIGGER ALL'],
    ['a new table', 'CREATE TABLE least_privilege_probe (x int)'],
    ['a change to the migration record', 'DELETE FROM schema_migrations WHERE version = 13'],
    ['a change to a series key', "UPDATE vitals_series SET code = code || '-changed'"],
    ['a series key deleted', 'DELETE FROM vitals_series'],
    ['TRUNCATE of the series dictionary', 'TRUNCATE vitals_series'],
  ])('refuses %s (42501)', async (_what, sql) => {
    const err = await asAppRolledBack(sql);
    expect(err, `${sql} succeeded as ${APP_ROLE}`).toBeDefined();
    expect(err!.code).toBe(INSUFFICIENT_PRIVILEGE);
    // PostgreSQL's privilege check, not the append-only trigger (which answers 42501 as well)
    expect(err!.message).toMatch(/^(permission denied|must be owner)/);
  });

  it('may append to the trail and read it', async () => {
    const marker = uid();
    const { rows } = await app.query(
      "INSERT INTO audit_events (action, outcome, detail) VALUES ('test.least-privilege', 'success', $1) RETURNING id",
      [{ marker }],
    );
    const read = await app.query("SELECT id FROM audit_events WHERE action = 'test.least-privilege' AND detail->>'marker' = $1", [marker]);
    expect(read.rows).toEqual([{ id: rows[0].id }]);
  });

  it('an app start refuses an owner or superuser connection in production, and only warns elsewhere', async () => {
    await expect(assertAppDatabase(app, { production: true, warn: () => {} })).resolves.toBeUndefined();
    await expect(assertAppDatabase(owner, { production: true, warn: () => {} })).rejects.toBeInstanceOf(AppRoleError);
    const warnings: string[] = [];
    await assertAppDatabase(owner, { production: false, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringMatching(/more than the app's privileges .*connect as vitalis_app/)]);
  });
});

describe('the apps under the app role', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway(); // test gateways connect as APP_DATABASE_URL
  });
  afterAll(() => gw?.close());

  async function registerPatient(headers: Record<string, string>): Promise<string> {
    const res = await fetch(`${gw.url}/api/v1/patients`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceType: 'Patient',
        name: [{ family: `Least${uid()}`, given: ['Ada'] }],
        birthDate: '1980-02-03',
        gender: 'female',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  it('a real gateway serves an authenticated patient read and writes its audit row', async () => {
    expect((await gw.deps.pool.query('SELECT current_user AS who')).rows[0].who).toBe(APP_ROLE);
    const headers = await authHeaders(gw.url, ['read:patients', 'write:patients']);
    const id = await registerPatient(headers);
    const res = await fetch(`${gw.url}/api/v1/patients/${id}`, { headers });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const { rows } = await owner.query("SELECT outcome, request_id FROM audit_events WHERE action = 'patient.read' AND resource_id = $1", [
      id,
    ]);
    expect(rows).toEqual([{ outcome: 'success', request_id: requestId }]);
  });

  it("two requests naming the same x-request-id get two audit rows with the server's own, different ids", async () => {
    const headers = await authHeaders(gw.url, ['read:patients', 'write:patients']);
    const id = await registerPatient(headers);
    const callerId = `trace-${uid()}`;
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gw.url}/api/v1/patients/${id}`, { headers: { ...headers, 'x-request-id': callerId } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-client-request-id')).toBe(callerId);
      answers.push(res.headers.get('x-request-id'));
      await res.body?.cancel();
    }
    const { rows } = await owner.query<{ request_id: string }>(
      "SELECT request_id FROM audit_events WHERE action = 'patient.read' AND resource_id = $1 ORDER BY id",
      [id],
    );
    const ids = rows.map((r) => r.request_id);
    expect(ids).toEqual(answers);
    expect(new Set(ids).size).toBe(2);
    expect(ids).not.toContain(callerId);
    for (const rid of ids) expect(rid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("the projector's partition maintenance creates and drops daily partitions through the owner's functions", async () => {
    // Ahead: today + 8 days (the jobs keep 7 ahead), removed first when an earlier run left it empty.
    const ahead = `vitals_observations_${new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '')}`;
    if ((await owner.query('SELECT to_regclass($1) AS t', [ahead])).rows[0].t) {
      const rows = (await owner.query(`SELECT count(*)::int AS n FROM ${ahead}`)).rows[0].n;
      if (rows === 0) await owner.query(`DROP TABLE ${ahead}`);
    }
    // Expired: a private day older than any other test's (5000 days ago), made by the owner.
    const day = new Date(Date.now() - 5000 * 86_400_000).toISOString().slice(0, 10);
    const old = `vitals_observations_${day.replaceAll('-', '')}`;
    const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    await owner.query(`CREATE TABLE IF NOT EXISTS ${old} PARTITION OF vitals_observations FOR VALUES FROM ('${day}') TO ('${next}')`);

    const result = await maintainPartitions(app, { retentionDays: 4999, daysAhead: 8 });
    expect(result.dropped).toBeGreaterThanOrEqual(1);
    expect((await owner.query('SELECT to_regclass($1) AS t', [old])).rows[0].t).toBeNull();
    const made = await owner.query(
      `SELECT pg_get_userbyid(relowner) AS owner, has_table_privilege($2, oid, 'INSERT') AS app_inserts, has_table_privilege($2, oid, 'TRUNCATE') AS app_truncates
         FROM pg_class WHERE oid = to_regclass($1)`,
      [ahead, APP_ROLE],
    );
    // The owner's (SECURITY DEFINER) table, with the app role's default grants.
    expect(made.rows).toEqual([{ owner: expect.not.stringMatching(APP_ROLE), app_inserts: true, app_truncates: false }]);
  });

  describe('a real ingest worker', () => {
    const kafka = testKafka('least-privilege');
    let admin: Admin;
    let producer: VitalsProducer;
    let topics: Awaited<ReturnType<typeof privateTopics>>;
    beforeAll(async () => {
      admin = kafka.admin();
      await admin.connect();
      topics = await privateTopics(admin, 1);
      producer = createVitalsProducer(kafka, { retries: 'unbounded' });
      await producer.connect();
    });
    afterAll(async () => {
      await producer?.disconnect();
      await topics?.drop();
      await admin?.disconnect();
    });

    it('ensures its partitions at start and stores observations', async () => {
      const worker = await startTestIngest(kafka, app, { topic: topics.topic, dlqTopic: topics.dlqTopic });
      try {
        const patient = `pat-lp-${uid()}`;
        const now = Date.now();
        await producer.send({
          topic: topics.topic,
          acks: -1,
          messages: Array.from({ length: 5 }, (_, i) => ({
            key: patient,
            value: JSON.stringify(numeric(patient, `${patient}-dev`, i, new Date(now + i))),
          })),
        });
        await waitFor(
          () => countStored(owner, { patient }),
          (c) => c.rows === 5,
          45_000,
          '5 rows stored by the app role',
        );
      } finally {
        await worker.stop();
      }
    });
  });
});
