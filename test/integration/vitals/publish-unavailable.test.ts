/**
 * POST /api/v1/vitals while Kafka cannot be reached, over real HTTP against a real gateway: its vitals
 * producer (libs/kafka producer.ts, ADR 0037) retries a bounded number of times, then the request
 * answers 503 with an RFC 9457 problem saying nothing was accepted, and the audit says the batch was
 * not published, in one log line that names the cause without every attempt's error tree. Once the
 * broker answers again, the same batch is accepted (202). The gateway reaches the broker through a TCP
 * proxy that is closed, then opened again on the same port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy';
import { numeric, uid } from './support';

let gw: RunningGateway;
let broker: TcpProxy;
const logLines: string[] = [];

beforeAll(async () => {
  const [host, port] = testEnv.KAFKA_BROKERS[0]!.split(':');
  broker = await startTcpProxy(host!, Number(port));
  await broker.stop();
  gw = await startGateway(
    { KAFKA_BROKERS: broker.hostPort, LOG_LEVEL: 'error' },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await gw?.close();
  await broker?.stop();
});

describe('POST /api/v1/vitals with Kafka unreachable', () => {
  it('answers 503 (problem, retry after 5 s, nothing accepted) and audits the batch as not published; the same batch is accepted once Kafka is back', async () => {
    const device = await registerClient(gw.url, ['write:vitals'], `publish-unavailable-${uid()}`, 'device');
    const headers = { authorization: `Bearer ${await clientCredentialsToken(gw.url, device)}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ observations: [numeric('pat-0001', `dev-unavailable-${uid()}`, 1, new Date())] });

    const down = await fetch(`${gw.url}/api/v1/vitals`, { method: 'POST', headers, body });
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await down.json()).toMatchObject({ status: 503, retry_after: 5, detail: expect.stringContaining('nothing was accepted') });
    const { rows } = await gw.deps.pool.query<{ outcome: string; detail: Record<string, unknown> }>(
      `SELECT outcome, detail FROM audit_events WHERE actor_client_id = $1 AND action = 'vitals.write' ORDER BY id`,
      [device.client_id],
    );
    expect(rows.map((r) => ({ outcome: r.outcome, reason: r.detail.reason ?? null }))).toContainEqual({
      outcome: 'failure',
      reason: 'kafka unavailable',
    });

    const failures = logLines.filter((line) => line.includes('publishing vitals to Kafka failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('ECONNREFUSED');
    expect(failures[0]!.length).toBeLessThan(3_000);

    await broker.start();
    const up = await fetch(`${gw.url}/api/v1/vitals`, { method: 'POST', headers, body });
    expect(up.status).toBe(202);
    expect(await up.json()).toMatchObject({ accepted: 1 });
  });
});
