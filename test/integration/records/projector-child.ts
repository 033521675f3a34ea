/**
 * A projector process for the kill test: runs the real runner (catchUp, transactional
 * checkpoints) with a projection that records every event it applies, until it is killed.
 * A plain log (no unique key) so an event applied twice shows up as a duplicate row.
 */
import { createPool } from '@vitalis/db';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import type { Projection } from '../../../apps/projector/src/projections/definitions';

const prefix = process.argv[2]!;
const pool = createPool({ url: process.env.DATABASE_URL!, max: 2 });
const projection: Projection = {
  name: `kill-test-${prefix}`,
  table: 'kill_test_applied',
  owns: (s) => s.startsWith(prefix),
  write: async (client, table, _streams, batch) => {
    for (const e of batch)
      await client.query(`INSERT INTO ${table} (projection, global_position) VALUES ($1, $2)`, [prefix, e.globalPosition]);
  },
};
for (;;) {
  await catchUp(pool, projection, { batch: 20, maxBatches: 1 });
  await new Promise((r) => setTimeout(r, 5));
}
