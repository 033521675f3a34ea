/**
 * A long transaction elsewhere on the server never freezes the read models (issue 29 item 2,
 * ADR 0017). Another database of the same PostgreSQL server holds a transaction with an xid open
 * for 30 s (a migration, a backup tool, an analyst's write); meanwhile a patient registered over
 * HTTP appears in `GET /api/v1/patients?name=` (a projection read model) while that transaction is
 * still open. Before ADR 0017 the reader waited for the server-wide xid horizon: the patient
 * appeared only once the foreign transaction ended. Disruptive because it holds the horizon of the
 * whole server for 30 s, which other suites running at the same time would feel (on the old code).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { authHeaders } from '../helpers/auth';
import { testEnv } from '../helpers/env';
import { startGateway, type RunningGateway } from '../helpers/gateway';
import { runProjections } from '../integration/ui/support';

const HOLD_MS = 30_000;
let gw: RunningGateway;
let projections: { stop: () => Promise<void> };
const owner = createPool({ url: testEnv.DATABASE_URL, max: 4 });
// The foreign transaction runs in the server's maintenance database, not in the test database.
const foreign = createPool({ url: Object.assign(new URL(testEnv.DATABASE_URL), { pathname: '/postgres' }).toString(), max: 1 });

beforeAll(async () => {
  gw = await startGateway();
  projections = runProjections(owner);
});
afterAll(async () => {
  await projections?.stop();
  await gw?.close();
  await owner.end();
  await foreign.end();
});

describe('a foreign transaction held for 30 s', () => {
  it('leaves the projections current: a new patient is searchable while it is still open', async () => {
    const headers = { ...(await authHeaders(gw.url, ['read:patients', 'write:patients'])), 'content-type': 'application/json' };
    const holder = await foreign.connect();
    let open = false;
    try {
      await holder.query('BEGIN');
      const xid = (await holder.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x;
      open = true;
      const ends = new Promise<void>((resolve) =>
        setTimeout(() => {
          open = false;
          void holder.query('COMMIT').finally(resolve);
        }, HOLD_MS),
      );

      const family = `Foreign${randomUUID().replace(/-/g, '').slice(0, 10)}`;
      const created = await fetch(`${gw.url}/api/v1/patients`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ resourceType: 'Patient', name: [{ family, given: ['Ada'] }], birthDate: '1980-02-03', gender: 'female' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };

      let found = false;
      let openWhenFound = false;
      while (!found && open) {
        const page = (await (await fetch(`${gw.url}/api/v1/patients?name=${family}`, { headers })).json()) as {
          entry?: { resource: { id: string } }[];
        };
        found = (page.entry ?? []).some((e) => e.resource.id === id);
        if (found) {
          // the foreign transaction really is open and holds the server's horizon back
          const { rows } = await owner.query<{ held: boolean }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) <= $1::xid8 AS held', [
            xid,
          ]);
          openWhenFound = open && rows[0]!.held;
        } else await new Promise((r) => setTimeout(r, 100));
      }
      console.log(`patient searchable while a foreign transaction held the horizon: ${openWhenFound}`);
      expect(openWhenFound).toBe(true);
      await ends;
    } finally {
      if (open) await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });
});
