/**
 * The export reads the append log in its identity index's order (issue 34 item 5): the plan of the
 * COPY the worker runs for a whole-log export, first run and resumed, has no Sort node (the rows
 * come off the index), under the setting the worker runs it with (libs/export exportPlannerSetting). A
 * cursor an older worker wrote (device-first order) still resumes in its own order, sorted: the
 * plan shows that sort, which is what the time-first order removed. Over the real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool, type PoolClient } from '@vitalis/db';
import { exportCopySql, exportPlannerSetting, type ExportCursor, type ExportJob } from '@vitalis/export';
import { testEnv } from '../../helpers/env';

let pool: Pool;
let client: PoolClient;
let job: ExportJob;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The plan of the query inside the worker's COPY, under the settings the worker runs it with. */
async function planOf(cursor: ExportCursor | null, patient?: string): Promise<PlanNode[]> {
  const copy = exportCopySql(job, cursor, patient);
  const select = /^COPY \(([\s\S]*)\) TO STDOUT$/.exec(copy)![1]!;
  await client.query('BEGIN');
  try {
    const setting = exportPlannerSetting(job, patient);
    if (setting) await client.query(setting.set); // rolled back with the transaction
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${select}`);
    return nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
  } finally {
    await client.query('ROLLBACK');
  }
}

const sorts = (nodes: PlanNode[]) => nodes.filter((n) => /Sort/.test(n['Node Type'])).map((n) => n['Node Type']);

beforeAll(async () => {
  pool = createPool({ url: testEnv.DATABASE_URL, max: 2 });
  client = await pool.connect();
  const { rows } = await client.query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
  job = {
    patients: null,
    filters: [],
    snapshot: rows[0]!.snapshot,
    since_snapshot: null,
    since_at: null,
    until_snapshot: null,
    until_at: null,
  } as unknown as ExportJob;
});
afterAll(async () => {
  client?.release();
  await pool?.end();
});

describe('the export COPY reads the log in the identity index order', () => {
  it('a whole-log export: no Sort node, the rows come off vitals_observations_identity', async () => {
    const nodes = await planOf(null);
    expect(sorts(nodes)).toEqual([]);
    expect(nodes.some((n) => n['Index Name']?.startsWith('vitals_observations') && /Index/.test(n['Node Type']))).toBe(true);
  });

  it('resumed after a time-first cursor: no Sort node either (the resume key is the index key)', async () => {
    const cursor: ExportCursor = { t: '2026-01-01T00:00:00.000000Z', d: 'mon-1', s: 7, order: 'time-first' };
    expect(sorts(await planOf(cursor))).toEqual([]);
  });

  it("an older worker's device-first cursor resumes in its own order: that order has no index, so it sorts", async () => {
    const legacy: ExportCursor = { t: '2026-01-01T00:00:00.000000Z', d: 'mon-1', s: 7 };
    expect(exportCopySql(job, legacy)).toContain('ORDER BY device_id, seq, effective_at');
    expect(sorts(await planOf(legacy)).length).toBeGreaterThan(0);
  });

  it("one patient's block (organized by patient) keeps the planner's choice: the sort is bounded by that patient's rows", () => {
    expect(exportPlannerSetting(job, 'pat-0001')).toBeUndefined();
    expect(exportPlannerSetting({ patients: ['pat-0001'] })).toBeUndefined();
    expect(exportPlannerSetting(job)).toEqual({ set: 'SET enable_sort = off', reset: 'RESET enable_sort' });
  });
});
