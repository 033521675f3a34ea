/**
 * The newest stored observation: when the last reading in the vitals append log was taken
 * (max(effective_at)). One definition for the ingest's gauge
 * (vitalis_vitals_newest_observation_age_seconds, the VitalisVitalsDataDelayed alert) and the
 * gateway's health (`pipeline.newest_observation_at`), so the alert and the health cannot disagree.
 *
 * Cheap on a table of any size: vitals_observations is range-partitioned (or a hypertable) by
 * effective_at and its identity index starts with effective_at (migration 0020), so max() is one
 * backward index step per partition (or chunk) the window leaves; `effective_at > now() - 1 day`
 * prunes every older partition at executor start-up. Only when the last day holds nothing is the
 * whole log asked (still one index step per partition). The database's clock gives the age, so an
 * app host's clock does not move it. A device clock ahead of the gateway (up to
 * VITALS_MAX_CLOCK_SKEW_SECONDS) can make the newest reading a little "in the future": age 0.
 */

/** What the reading needs of a pg Pool (structural: this library does not depend on pg). */
export interface NewestQueryable {
  query: (q: { name: string; text: string }) => Promise<{ rows: Array<{ newest: Date | string | null; now: Date | string }> }>;
}

export interface NewestObservation {
  /** The newest stored reading's effective time, or null when the log holds none. */
  at: Date | null;
  /** Seconds from it to the database's now (0 when in the future), or null with `at`. */
  ageSeconds: number | null;
}

/**
 * Rows more than an hour ahead of the database clock are left out: the pipeline never stores one
 * (device clocks are bounded by VITALS_MAX_CLOCK_SKEW_SECONDS, 5 minutes by default, at the gateway
 * and the ingest), so such a row was written around it with a wrong clock, and would hide the age
 * of everything the pipeline stores until that hour passed.
 */
export const NEWEST_OBSERVATION_SQL = {
  // Named: each connection prepares them once (planning a query over every daily partition costs
  // more than running it); the partitions are still pruned when it runs (now() is known then).
  recent: `SELECT max(effective_at) AS newest, now() AS now FROM vitals_observations WHERE effective_at > now() - interval '1 day' AND effective_at <= now() + interval '1 hour'`,
  any: `SELECT max(effective_at) AS newest, now() AS now FROM vitals_observations WHERE effective_at <= now() + interval '1 hour'`,
} as const;

export async function readNewestObservation(db: NewestQueryable): Promise<NewestObservation> {
  let row = (await db.query({ name: 'vitalis_newest_observation_recent', text: NEWEST_OBSERVATION_SQL.recent })).rows[0];
  if (row && row.newest === null)
    row = (await db.query({ name: 'vitalis_newest_observation_any', text: NEWEST_OBSERVATION_SQL.any })).rows[0];
  if (!row || row.newest === null) return { at: null, ageSeconds: null };
  const at = new Date(row.newest);
  return { at, ageSeconds: Math.max(0, (new Date(row.now).getTime() - at.getTime()) / 1_000) };
}
