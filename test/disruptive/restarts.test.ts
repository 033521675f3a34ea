/**
 * Stops the shared servers for real: run alone, after the main suite (make test-disruptive).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { startGateway } from '../helpers/gateway';
import { testEnv } from '../helpers/env';

const stack = (...args: string[]) => execFileSync('infra/bin/stack', args, { encoding: 'utf8', stdio: 'pipe' });

async function pollHealth(url: string, until: (body: any) => boolean, timeoutMs: number): Promise<{ body: any; ms: number }> {
  const started = Date.now();
  for (;;) {
    const body = await (await fetch(`${url}/api/v1/health`)).json();
    if (until(body)) return { body, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`health never matched: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

afterAll(() => {
  stack('up'); // whatever happened, leave every server running
});

describe('Kafka killed', () => {
  it('health turns degraded naming kafka within seconds, and `stack up` brings it back to ok', async () => {
    const gw = await startGateway();
    try {
      await pollHealth(gw.url, (b) => b.status === 'ok', 30_000);
      const pid = Number(readFileSync('.data/run/kafka.pid', 'utf8'));
      process.kill(pid, 'SIGKILL');
      const down = await pollHealth(gw.url, (b) => b.checks.kafka.status === 'down', 15_000);
      expect(down.body.status).toBe('degraded');
      expect(down.body.checks.postgres.status).toBe('ok');
      console.log(`kafka down reported ${down.ms} ms after kill -9`);

      expect(stack('up')).toMatch(/kafka\s+running/);
      const back = await pollHealth(gw.url, (b) => b.status === 'ok', 60_000);
      expect(back.body.checks.kafka.status).toBe('ok');
    } finally {
      await gw.close();
    }
  });
});

describe('PostgreSQL stopped', () => {
  it('health answers 503 down naming postgres, and ok again once it is back', async () => {
    const gw = await startGateway({ HEALTH_TIMEOUT_MS: '1500' });
    try {
      stack('down', 'pg');
      const res = await fetch(`${gw.address}/api/v1/health`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as any;
      expect(body.status).toBe('down');
      expect(body.checks.postgres.status).toBe('down');
      stack('up', 'pg');
      await pollHealth(gw.address, (b) => b.status === 'ok', 30_000);
    } finally {
      stack('up', 'pg');
      await gw.close();
    }
  });
});

describe('PostgreSQL restarted', () => {
  it('a committed row survives a server stop and start', async () => {
    const marker = randomUUID();
    let pool = createPool({ url: testEnv.DATABASE_URL, max: 1 });
    await pool.query("INSERT INTO audit_events (action, outcome, detail) VALUES ('test.durability', 'success', $1)", [{ marker }]);
    await pool.end();

    stack('down', 'pg');
    expect(() => stack('status')).toThrow(); // status exits non-zero while postgres is stopped
    stack('up', 'pg');

    pool = createPool({ url: testEnv.DATABASE_URL, max: 1 });
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM audit_events WHERE detail->>'marker' = $1", [marker]);
    await pool.end();
    expect(rows[0].n).toBe(1);
  });
});
