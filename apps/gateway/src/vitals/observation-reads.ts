/**
 * Vitals as the Observations a FHIR search serves: pages of a patient's stored rows (readHistory:
 * its access rule, cursor and audit) with the blood-pressure readings paired into panels
 * (bp-panels.ts, docs/adr/0026), one Observation by id, and the latest per code ($lastn).
 */
import type { Pool } from '@vitalis/db';
import { VITAL_CODE, type ObservationEntry, type VitalsObservation } from '@vitalis/schemas';
import { type Caller } from '../access/caller';
import { type VitalsChannel } from './access';
import { bloodPressureInstants, entriesOfPage, storedCodesFor } from './bp-panels';
import { type HistoryRange, vitalsStoreFor } from './history-rules';
import { readHistory, readLatest, readObservation } from './reads';

export interface ObservationPageQuery {
  patient: string;
  /** The codes asked for (OR), 85354-9 the blood-pressure panel; undefined: every code. */
  codes?: readonly string[] | undefined;
  range: HistoryRange;
  limit: number;
  cursor?: string | undefined;
  descending?: boolean | undefined;
}

/** The entries of some stored rows: their blood-pressure readings paired (the partners looked up at their instants). */
async function entriesOf(
  pool: Pool,
  patient: string,
  rows: readonly VitalsObservation[],
  wanted: readonly string[] | undefined,
): Promise<ObservationEntry[]> {
  const instants = bloodPressureInstants(rows);
  const readings = instants.length > 0 ? await vitalsStoreFor(pool, patient).bloodPressureAt(patient, instants) : [];
  return entriesOfPage(rows, readings, wanted);
}

/**
 * One page of a patient's Observations over a range of any length: a keyset page of stored rows
 * (at most `limit`, one index range scan per stored code), its blood-pressure readings paired into
 * panels (one more index range scan over the page's instants). A page may serve fewer entries than
 * rows (a panel is two rows); `next` is the cursor after the page's last row, or null.
 */
export async function readObservationPage(
  pool: Pool,
  caller: Caller,
  q: ObservationPageQuery,
  via: VitalsChannel,
): Promise<{ entries: ObservationEntry[]; next: string | null }> {
  const stored = storedCodesFor(q.codes);
  const page = await readHistory(
    pool,
    caller,
    {
      patient: q.patient,
      ...(stored !== undefined ? { codes: stored } : {}),
      range: q.range,
      limit: q.limit,
      cursor: q.cursor,
      descending: q.descending,
      anyRange: true,
    },
    via,
  );
  if (page.kind !== 'raw') throw new Error('unreachable: a raw query answered buckets');
  return { entries: await entriesOf(pool, q.patient, page.rows, q.codes), next: page.next };
}

/**
 * One Observation by its id `{device_id}.{seq}` (readObservation: its access rule and audit): a
 * systolic row that has its diastolic partner is read as its panel (the panel's id is the
 * systolic's); any other row as itself (a paired diastolic too: its stored row still answers its id).
 */
export async function readObservationEntry(pool: Pool, caller: Caller, id: string, via: VitalsChannel): Promise<ObservationEntry> {
  const o = await readObservation(pool, caller, id, via);
  if (o.code !== VITAL_CODE.systolic) return o;
  return (await entriesOf(pool, o.patient_id, [o], undefined))[0] ?? o;
}

/**
 * The latest Observation per code asked for (`codes` as in a search; readLatest of every stored
 * code, one index probe each), the latest blood-pressure readings as their panel where they pair.
 */
export async function readLatestEntries(
  pool: Pool,
  caller: Caller,
  patientId: string,
  codes: readonly string[] | undefined,
  via: VitalsChannel,
): Promise<ObservationEntry[]> {
  const rows = await readLatest(pool, caller, patientId, undefined, via);
  return entriesOf(pool, patientId, rows, codes);
}
