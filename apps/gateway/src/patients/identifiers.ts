/**
 * One patient per business identifier (system + value, e.g. an MRN). Each patient is its own event
 * stream, so the event store cannot enforce this; the `patient_identifiers` table does, written in
 * the same transaction as the registration or update event (migration 0008).
 */
import type { PoolClient } from '@vitalis/db';
import type { Identifier } from '@vitalis/records';

/**
 * Makes `identifiers` the patient's reserved set: releases the ones it no longer has, reserves the
 * new ones. Returns an identifier another patient already holds (the caller rolls back), or
 * undefined. Concurrent reservations of one identifier serialise on the primary key: the later
 * transaction waits, then sees the row as taken.
 */
export async function reserveIdentifiers(
  client: PoolClient,
  patientId: string,
  identifiers: Identifier[],
): Promise<Identifier | undefined> {
  const systems = identifiers.map((i) => i.system);
  const values = identifiers.map((i) => i.value);
  await client.query(
    `DELETE FROM patient_identifiers
      WHERE patient_id = $1 AND (system, value) NOT IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [patientId, systems, values],
  );
  if (identifiers.length === 0) return undefined;
  await client.query(
    `INSERT INTO patient_identifiers (system, value, patient_id)
     SELECT s, v, $1 FROM unnest($2::text[], $3::text[]) AS x(s, v)
     ON CONFLICT DO NOTHING`,
    [patientId, systems, values],
  );
  const { rows } = await client.query<Identifier>(
    `SELECT system, value FROM patient_identifiers
      WHERE (system, value) IN (SELECT * FROM unnest($2::text[], $3::text[])) AND patient_id <> $1
      LIMIT 1`,
    [patientId, systems, values],
  );
  return rows[0];
}
