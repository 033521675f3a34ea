/**
 * No audit row, no vitals: when the audit trail cannot take a vitals row, every vitals path answers
 * 503 before serving, streaming or publishing anything (REST reads, the SSE stream, a WebSocket
 * subscription, POST /api/v1/vitals, the MCP tools). The failing audit trail belongs to one
 * dedicated gateway (test/helpers/audit-refusal.ts): it refuses every `vitals.*` row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@vitalis/db';
import type { RunningGateway } from '../../helpers/gateway';
import { startGatewayRefusingAudit } from '../../helpers/audit-refusal';
import { authHeaders } from '../../helpers/auth';
import { openSse, openWs, streamUrl } from '../live/support';
import { connect, tokenFor } from '../mcp/support';
import { numeric, testPool, uid } from './support';

let pool: Pool;
let gw: RunningGateway & { schema: string };
const patient = `pat-noaudit-${uid()}`;

beforeAll(async () => {
  pool = testPool();
  gw = await startGatewayRefusingAudit('vitals.%');
});

afterAll(async () => {
  await gw?.close();
  await pool?.end();
});

async function expect503(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable', detail: expect.stringMatching(/audit trail/) });
}

describe('a vitals access that cannot be audited is refused with 503', () => {
  it('REST reads: history and latest', async () => {
    const reader = await authHeaders(gw.url, ['read:vitals']);
    await expect503(
      await fetch(`${gw.url}/api/v1/vitals?patient=${patient}&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`, { headers: reader }),
    );
    await expect503(await fetch(`${gw.url}/api/v1/vitals/latest?patient=${patient}`, { headers: reader }));
  });

  it('SSE: a problem response instead of a stream, and no hub subscription', async () => {
    const reader = await authHeaders(gw.url, ['read:vitals']);
    const before = gw.app.liveHub.stats.subscribers;
    const sse = await openSse(streamUrl(gw, { patient }), reader);
    expect(sse.status).toBe(503);
    expect(sse.contentType).toMatch(/^application\/problem\+json/);
    expect(sse.body).toMatchObject({ status: 503, detail: expect.stringMatching(/audit trail/) });
    expect(gw.app.liveHub.stats.subscribers).toBe(before);
  });

  it('WebSocket: the subscription is refused with a 503 error message, the socket stays usable', async () => {
    const reader = await authHeaders(gw.url, ['read:vitals']);
    // the hub also follows the FHIR Subscriptions other test files left in this database
    const before = gw.app.liveHub.stats.subscribers;
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, reader);
    try {
      ws.send({ type: 'subscribe', sub: 's1', patients: [patient] });
      const messages = await ws.waitFor((m) => m.some((x) => x.type === 'error'), 'the refusal');
      expect(messages.find((x) => x.type === 'error')).toMatchObject({ sub: 's1', status: 503, title: 'Service Unavailable' });
      ws.send({ type: 'ping' });
      await ws.waitFor((m) => m.some((x) => x.type === 'pong'), 'pong');
      expect(ws.messages.some((x) => x.type === 'subscribed')).toBe(false);
      expect(gw.app.liveHub.stats.subscribers).toBe(before);
    } finally {
      ws.socket.close();
    }
  });

  it('POST /api/v1/vitals: 503 and nothing published', async () => {
    const writer = await authHeaders(gw.url, ['write:vitals']);
    const res = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...writer },
      body: JSON.stringify({ observations: [numeric(patient, `${patient}-dev`, 1, new Date())] }),
    });
    await expect503(res);
  });

  it('MCP: the vitals tools answer a 503 tool error', async () => {
    const { token } = await tokenFor(gw.url, ['read:vitals']);
    const c = await connect(gw.url, token);
    try {
      const r = await c.client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: patient } });
      expect(r.isError).toBe(true);
      expect((r.content as { text: string }[])[0]!.text).toMatch(/^Service Unavailable \(503\)/);
    } finally {
      await c.close();
    }
  });

  it('nothing of it reached the real audit trail, and the refusing table only refuses vitals rows', async () => {
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM public.audit_events WHERE resource_id = $1', [patient]);
    expect(rows[0].n).toBe(0);
    const { rows: shadow } = await pool.query(`SELECT count(*)::int AS n FROM ${gw.schema}.audit_events WHERE action = 'token.issued'`);
    expect(shadow[0].n).toBeGreaterThan(0);
  });
});
