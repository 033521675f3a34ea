/**
 * What one run of an export writes, in its order (worker.ts runs them): organized by type, the
 * records read at kick-off (export_records: Patient, AllergyIntolerance, ... in type order, one file
 * set per type), then the Observations streamed out of the append log with COPY (pulled chunk by
 * chunk, with backpressure); organized by patient (Bulk Data 3.0 `organizeOutputBy=Patient`), one
 * block per patient: a header Parameters naming the Patient, then its records, then its
 * Observations, a block never split across files. Each file is committed with where the run got to
 * (records: the last record's number; Observations: the log key of the last row; blocks: the last
 * patient), so a successor resumes after it. `_elements` reduces each Observation (elements.ts);
 * the records were reduced at kick-off.
 */
import copyStreams from 'pg-copy-streams';
import type { PoolClient } from '@vitalis/db';
import { exportRecords } from './jobs';
import { exportCopySql, exportPlannerSetting, observationNdjson } from './observation-lines';
import { appendJson, checkRun, commitFile, commitIfFull, flushBlock, type ExportRunState } from './worker-run';

/** Records read per query. */
const RECORD_SLICE = 500;

/** Whether the job exports Observations (a job without types: Observations only). */
const withObservations = (run: ExportRunState) => run.job.types === null || run.job.types.includes('Observation');

/** An Observation's NDJSON line, reduced to the job's `_elements` when it has them. */
const observationLine = (run: ExportRunState, line: string): string => observationNdjson(line, run.job.elements);

/**
 * The lines of one COPY, a chunk's worth at a time (a chunk's partial last line waits for the next
 * chunk): one yield per chunk, not per row, which an export of millions of rows would feel.
 */
async function* copyLines(client: PoolClient, sql: string, run: ExportRunState): AsyncGenerator<string[]> {
  const copy = client.query(copyStreams.to(sql));
  let rest = '';
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    checkRun(run);
    const text = rest + chunk.toString('utf8');
    const end = text.lastIndexOf('\n');
    rest = text.slice(end + 1);
    if (end >= 0) yield text.slice(0, end).split('\n');
  }
}

/** Organized by type: the records after the cursor, one file set per type, then the Observations after the cursor. */
export async function writeByType(run: ExportRunState, client: PoolClient): Promise<void> {
  const cursor = run.job.cursor;
  if (cursor === null || 'n' in cursor) {
    let after = cursor === null ? 0 : cursor.n;
    for (;;) {
      checkRun(run);
      const records = await exportRecords(run.pool, run.job.id, after, RECORD_SLICE);
      for (const r of records) {
        run.mark = { n: r.n };
        await appendJson(run, r.line, r.type);
        after = r.n;
      }
      if (records.length < RECORD_SLICE) break;
    }
  }
  await flushBlock(run);
  await commitFile(run);
  run.mark = undefined;
  if (!withObservations(run)) return;
  const from = cursor !== null && 'd' in cursor ? cursor : null;
  // the whole log comes off the identity index in order (observation-lines.ts exportPlannerSetting); a
  // failed COPY destroys the connection, so the setting never outlives this run
  const setting = exportPlannerSetting(run.job);
  if (setting) await client.query(setting.set);
  for await (const lines of copyLines(client, exportCopySql(run.job, from), run)) {
    for (const line of lines) {
      run.lastLine = line;
      await appendJson(run, observationLine(run, line), 'Observation');
    }
  }
  if (setting) await client.query(setting.reset);
  await flushBlock(run);
  await commitFile(run);
}

/** The header of a patient block (Bulk Data 3.0 output file organization). */
const headerOf = (patient: string) =>
  JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'header', valueReference: { reference: `Patient/${patient}` } }] });

/** Organized by patient: the blocks of the job's patients after the cursor, files committed between blocks. */
export async function writeByPatient(run: ExportRunState, client: PoolClient): Promise<void> {
  const cursor = run.job.cursor;
  const last = cursor !== null && 'p' in cursor ? cursor.p : undefined;
  const patients = [...(run.job.patients ?? [])].sort().filter((p) => last === undefined || p > last);
  for (const patient of patients) {
    checkRun(run);
    run.inBlock = true;
    let header = false;
    const line = async (json: string) => {
      if (!header) await appendJson(run, headerOf(patient), 'file');
      header = true;
      await appendJson(run, json, 'file');
    };
    let after = 0;
    for (;;) {
      const records = await exportRecords(run.pool, run.job.id, after, RECORD_SLICE, patient);
      for (const r of records) await line(r.line);
      after = records[records.length - 1]?.n ?? after;
      if (records.length < RECORD_SLICE) break;
    }
    if (withObservations(run))
      for await (const lines of copyLines(client, exportCopySql(run.job, null, patient), run))
        for (const l of lines) await line(observationLine(run, l));
    run.inBlock = false;
    run.mark = { p: patient };
    await commitIfFull(run);
  }
  await flushBlock(run);
  await commitFile(run);
}
