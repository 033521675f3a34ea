/**
 * The vitals pipeline's "delayed" judgement over HTTP and MCP, against a real gateway reading real
 * brokers and a database of the test's own (so the newest stored observation is the test's to
 * choose, not whatever other test files stored): a private topic whose messages no ingest group
 * consumes, and one observation 10 minutes old.
 *  - nothing waits: old data is an idle ward, `ok` (a row hours ahead of the clock, written around
 *    the pipeline, is not taken for the newest reading);
 *  - messages wait past HEALTH_DATA_AGE_AFTER_MS while the newest stored reading is older: health
 *    `degraded`, `pipeline.delayed`, naming the partition; readiness stays `ready` and reports the
 *    same summary; the MCP tool get_pipeline_status says the same;
 *  - a fresh reading stored while messages still wait (a busy pipeline): not delayed;
 *  - the group catching up (offsets committed to the end): `ok` again.
 * Stalls (no progress while messages wait) are tested in test/integration/vitals/poison.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Producer } from 'kafkajs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { privateTopics, testKafka, uid, waitFor } from '../vitals/support';
import { connect, type Connected } from '../mcp/support';

const kafka = testKafka('pipeline-health');
let db: PrivateDatabase;
let admin: Admin;
let producer: Producer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
let gw: RunningGateway;
let mcp: Connected;
const groupId = `vitalis-test-pipeline-${uid()}`;
const tenMinutesAgo = new Date(Math.floor(Date.now() / 1_000) * 1_000 - 600_000);

const store = (at: Date, device: string) =>
  db.pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     VALUES ('pat-pipeline', $1, 1, '8867-4', $2, 72, '/min', 0, 0, vitals_series_assign('pat-pipeline', '8867-4'))`,
    [device, at],
  );

beforeAll(async () => {
  db = await privateDatabase('pipeline');
  await store(tenMinutesAgo, 'mon-old');
  // written around the pipeline with a clock 3 hours ahead (the pipeline bounds device clocks to minutes): not the newest reading
  await store(new Date(Date.now() + 3 * 3_600_000), 'mon-skewed');
  admin = kafka.admin();
  await admin.connect();
  topics = await privateTopics(admin, 3);
  producer = kafka.producer();
  await producer.connect();
  gw = await startGateway({
    DATABASE_URL: db.url,
    VITALS_TOPIC: topics.topic,
    LIVE_TOPIC: topics.topic,
    INGEST_GROUP_ID: groupId,
    HEALTH_DATA_AGE_AFTER_MS: '1500',
    HEALTH_STALL_AFTER_MS: '0', // this file judges the data age alone
  });
  const client = await registerClient(gw.url, ['read:vitals'], 'vitalis-pipeline-test', 'system', db.url);
  mcp = await connect(gw.url, await clientCredentialsToken(gw.url, client));
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await gw?.close();
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await db?.drop();
});

interface Health {
  status: string;
  pipeline: {
    status: string;
    delayed: boolean;
    lag: number;
    stalled_partitions: number[];
    delayed_partitions: number[];
    delayed_s: number;
    newest_observation_at: string | null;
    newest_observation_age_s: number | null;
    data_age_after_s: number;
    partitions: { partition: number; lag: number; stalled_s: number; waiting_s: number }[];
  };
}
const health = async () => (await (await fetch(`${gw.url}/api/v1/health`)).json()) as Health;
const readyz = async () => {
  const res = await fetch(`${gw.url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { status: string; checks: Record<string, string>; pipeline?: Record<string, unknown> },
  };
};

describe('the vitals pipeline in health, readiness and MCP', () => {
  it('nothing waiting: old data is an idle ward, not a delay', async () => {
    const h = await health();
    expect(h.status).toBe('ok');
    expect(h.pipeline).toMatchObject({
      status: 'ok',
      delayed: false,
      lag: 0,
      delayed_partitions: [],
      data_age_after_s: 2,
      newest_observation_at: tenMinutesAgo.toISOString(),
    });
    expect(h.pipeline.newest_observation_age_s).toBeGreaterThanOrEqual(600);
    expect(h.pipeline.partitions.map((p) => p.partition)).toEqual([0, 1, 2]);
  });

  it('messages waiting while the newest stored reading is old: degraded, naming the partition; readiness reports it and stays ready; MCP says the same', async () => {
    await producer.send({
      topic: topics.topic,
      acks: -1,
      messages: [
        { partition: 1, value: 'a' },
        { partition: 1, value: 'b' },
      ],
    });
    const delayed = await waitFor(health, (h) => h.pipeline.delayed, 30_000, 'health to say delayed');
    expect(delayed.status).toBe('degraded');
    expect(delayed.pipeline).toMatchObject({
      status: 'delayed',
      delayed: true,
      lag: 2,
      stalled_partitions: [],
      delayed_partitions: [1],
      newest_observation_at: tenMinutesAgo.toISOString(),
    });
    expect(delayed.pipeline.delayed_s).toBeGreaterThanOrEqual(1);
    expect(delayed.pipeline.partitions.find((p) => p.partition === 1)).toMatchObject({
      lag: 2,
      stalled_s: expect.any(Number),
      waiting_s: expect.any(Number),
    });
    expect(delayed.pipeline.partitions.filter((p) => p.partition !== 1).every((p) => p.lag === 0 && p.waiting_s === 0)).toBe(true);

    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { schema: 'ok', postgres: 'ok', kafka: 'ok', redis: 'ok' } });
    expect(ready.body.pipeline).toMatchObject({
      status: 'delayed',
      delayed: true,
      lag: 2,
      stalled_partitions: [],
      delayed_partitions: [1],
      newest_observation_at: tenMinutesAgo.toISOString(),
    });
    expect(ready.body.pipeline).not.toHaveProperty('partitions'); // the summary: readiness bodies stay small

    const tool = (await mcp.client.callTool({ name: 'get_pipeline_status', arguments: {} })) as CallToolResult & {
      structuredContent?: any;
    };
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toMatchObject({
      status: 'delayed',
      delayed: true,
      delayed_partitions: [1],
      newest_observation_at: tenMinutesAgo.toISOString(),
    });
    expect((tool.content[0] as { text: string }).text).toMatch(
      /^Vitals data delayed \(delayed: partitions 1\); the newest stored reading is \d+ s old; 2 messages wait\.$/,
    );
  });

  it('a fresh reading stored while messages still wait (a busy pipeline) is not a delay; old again, it is', async () => {
    await store(new Date(), 'mon-fresh');
    const fresh = await waitFor(health, (h) => !h.pipeline.delayed, 30_000, 'health to see the fresh reading');
    expect(fresh.status).toBe('ok');
    expect(fresh.pipeline).toMatchObject({ status: 'ok', lag: 2, delayed_partitions: [] });
    expect(fresh.pipeline.newest_observation_age_s).toBeLessThan(60);

    await db.pool.query(`DELETE FROM vitals_observations WHERE device_id = 'mon-fresh'`);
    await waitFor(health, (h) => h.pipeline.delayed, 30_000, 'health to say delayed again');
  });

  it('the ingest group catching up turns it ok again', async () => {
    await admin.setOffsets({ groupId, topic: topics.topic, partitions: [{ partition: 1, offset: '2' }] });
    const ok = await waitFor(health, (h) => h.pipeline.status === 'ok', 30_000, 'health ok again');
    expect(ok.status).toBe('ok');
    expect(ok.pipeline).toMatchObject({ delayed: false, lag: 0, delayed_partitions: [], delayed_s: 0 });
    expect((await readyz()).body.pipeline).toMatchObject({ status: 'ok', delayed: false });
  });

  it('the OpenAPI document names the schemas: Pipeline in health, PipelineSummary in readiness', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as any;
    expect(doc.components.schemas.Readiness.properties.pipeline).toMatchObject({ $ref: '#/components/schemas/PipelineSummary' });
    expect(doc.components.schemas.PipelineSummary.required).toEqual(
      expect.arrayContaining(['status', 'delayed', 'delayed_partitions', 'newest_observation_at', 'newest_observation_age_s']),
    );
    expect(doc.components.schemas.Pipeline.required).toEqual(expect.arrayContaining(['delayed', 'partitions', 'data_age_after_s']));
  });
});
