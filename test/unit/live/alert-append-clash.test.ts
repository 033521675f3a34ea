/**
 * `appendAlertEvents` when another writer keeps taking its streams' versions (a clash every time:
 * the database's answer to each statement is a unique violation on the stream's version): it
 * appends again, five statements in all, then fails the batch with an error that does not name the
 * stream, whose name holds the patient's id (kafkajs logs the error of a failed batch). The append
 * itself against PostgreSQL, clash included, is test/integration/eventstore/append-to-streams.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '@vitalis/db';
import { appendAlertEvents } from '@vitalis/live';
import { alertData } from '../../helpers/alert-data';

const patient = 'pat-clash-7731';
const data = alertData(patient, 'spo2-low', 'raised', 7, 7);

describe('appendAlertEvents after clashes', () => {
  it('appends again at the new heads, five times, then fails without naming the patient', async () => {
    let statements = 0;
    const clashing = {
      query: async () => {
        statements += 1;
        throw Object.assign(new Error('duplicate key value violates unique constraint "events_stream_id_stream_version_key"'), {
          code: '23505',
          constraint: 'events_stream_id_stream_version_key',
          detail: `Key (stream_id, stream_version)=(patientAlerts-${patient}, 2) already exists.`,
        });
      },
    } as unknown as Queryable;
    const failure = await appendAlertEvents(clashing, [{ data, position: { partition: 0, offset: 7, k: 1 } }]).catch((err: unknown) => err);
    expect(statements).toBe(5);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toMatch(/another writer took a version/);
    expect(String((failure as Error).stack)).not.toContain(patient);
  });
});
