/**
 * The FHIR subscriptions' tables (migration 0023): the subscriptions, owned by the client and user
 * that created them, and their numbered events. `numberEvents` is the one place a number is given:
 * under the subscription row's lock, idempotent by live stream id, so gateways that all number the
 * same subscription from the same ordered stream agree (the second finds the first's number).
 */
import { must } from '@vitalis/runtime';
import type { Pool, Queryable } from '@vitalis/db';
import { withTransaction } from '@vitalis/db';
import type { StoredSubscription, SubscriptionRequest, TopicName } from './topics';

/** Who owns a subscription: the OAuth client and the subject (user, or the client itself) of the token. */
export interface Owner {
  clientId: string;
  subject: string;
}

/** Events kept per subscription; older numbers are pruned (a `$events` call below them answers what is left). */
export const EVENTS_KEPT = 10_000;

interface Row {
  id: string;
  topic: TopicName;
  patient_id: string;
  codes: string[] | null;
  status: StoredSubscription['status'];
  reason: string;
  payload_content: StoredSubscription['payloadContent'];
  heartbeat_seconds: number | null;
  last_event_number: string;
  start_id: string;
  last_event_id: string | null;
}

export interface SubscriptionRecord extends StoredSubscription {
  /** Where the numbering continues: the live stream id after the last numbered event ('' = from the patient's first row). */
  resumeId: string;
}

const COLUMNS =
  'id, topic, patient_id, codes, status, reason, payload_content, heartbeat_seconds, last_event_number, start_id, last_event_id';

const recordOf = (r: Row): SubscriptionRecord => ({
  id: r.id,
  topic: r.topic,
  patientId: r.patient_id,
  codes: r.codes,
  status: r.status,
  reason: r.reason,
  payloadContent: r.payload_content,
  heartbeatSeconds: r.heartbeat_seconds,
  lastEventNumber: Number(r.last_event_number),
  resumeId: r.last_event_id ?? r.start_id,
});

/** A new subscription, numbered from `start` (a stream id of `liveTopic`). */
export async function insertSubscription(
  db: Queryable,
  id: string,
  owner: Owner,
  req: SubscriptionRequest,
  start: { liveTopic: string; id: string },
): Promise<SubscriptionRecord> {
  const { rows } = await db.query<Row>(
    `INSERT INTO fhir_subscriptions (id, owner_client, owner_subject, patient_id, topic, codes, status, channel_type, payload_content, heartbeat_seconds, reason, live_topic, start_id)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', 'websocket', $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
    [
      id,
      owner.clientId,
      owner.subject,
      req.patientId,
      req.topic,
      req.codes,
      req.payloadContent,
      req.heartbeatSeconds,
      req.reason,
      start.liveTopic,
      start.id,
    ],
  );
  return recordOf(must(rows[0], 'the inserted Subscription row'));
}

/** Why a client may create no more Subscriptions: it holds `limit` already. */
export class SubscriptionLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`this client holds ${limit} Subscriptions, the most one client may hold`);
  }
}

/**
 * Creates a subscription unless `owner` holds an identical one (same patient, topic, codes in any
 * order, payload and heartbeat; the reason text aside): then that one is answered (`created`
 * false) and nothing is stored. A client holding `limit` subscriptions (over all its users) gets
 * SubscriptionLimitReached. Serialised per client in the caller's transaction (an advisory lock),
 * so concurrent creates can neither pass the limit nor store twins.
 */
export async function createSubscriptionOnce(
  db: Queryable,
  id: string,
  owner: Owner,
  req: SubscriptionRequest,
  start: { liveTopic: string; id: string },
  limit: number,
): Promise<{ record: SubscriptionRecord; created: boolean }> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('vitalis-fhir-subscriptions:' || $1))", [owner.clientId]);
  const codes = req.codes === null ? null : [...new Set(req.codes)].sort();
  const { rows: twins } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM fhir_subscriptions
      WHERE owner_client = $1 AND owner_subject = $2 AND patient_id = $3 AND topic = $4 AND live_topic = $5
        AND payload_content = $6 AND heartbeat_seconds IS NOT DISTINCT FROM $7
        AND (SELECT array_agg(DISTINCT c ORDER BY c) FROM unnest(codes) c) IS NOT DISTINCT FROM $8::text[]
      ORDER BY created_at LIMIT 1`,
    [owner.clientId, owner.subject, req.patientId, req.topic, start.liveTopic, req.payloadContent, req.heartbeatSeconds, codes],
  );
  if (twins[0]) return { record: recordOf(twins[0]), created: false };
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM fhir_subscriptions WHERE owner_client = $1', [
    owner.clientId,
  ]);
  if (must(rows[0], "the count of the client's Subscriptions").n >= limit) throw new SubscriptionLimitReached(limit);
  return { record: await insertSubscription(db, id, owner, req, start), created: true };
}

/** The subscription when `owner` owns it (undefined otherwise: another client's is as absent as a missing one). */
export async function ownedSubscription(db: Queryable, owner: Owner, id: string): Promise<SubscriptionRecord | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM fhir_subscriptions WHERE id = $1 AND owner_client = $2 AND owner_subject = $3`,
    [id, owner.clientId, owner.subject],
  );
  return rows[0] ? recordOf(rows[0]) : undefined;
}

export async function ownedSubscriptions(db: Queryable, owner: Owner, limit: number): Promise<SubscriptionRecord[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM fhir_subscriptions WHERE owner_client = $1 AND owner_subject = $2 ORDER BY created_at, id LIMIT $3`,
    [owner.clientId, owner.subject, limit],
  );
  return rows.map(recordOf);
}

export async function deleteSubscription(db: Queryable, owner: Owner, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM fhir_subscriptions WHERE id = $1 AND owner_client = $2 AND owner_subject = $3`, [
    id,
    owner.clientId,
    owner.subject,
  ]);
  return (rowCount ?? 0) > 0;
}

/** The active subscriptions whose positions are in the live stream of `liveTopic`. */
export async function activeSubscriptions(db: Queryable, liveTopic: string): Promise<SubscriptionRecord[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM fhir_subscriptions WHERE status = 'active' AND live_topic = $1`, [
    liveTopic,
  ]);
  return rows.map(recordOf);
}

export interface NumberedEvent {
  number: number;
  liveId: string;
  occurredAt: string;
  focus: Record<string, unknown>;
}

/**
 * Gives the events (live stream ids, in stream order) their numbers: the next ones, or those they
 * already have. One transaction for the batch. Undefined when the subscription is gone or no longer
 * active (the caller stops numbering it).
 */
export function numberEvents(
  pool: Pool,
  subscriptionId: string,
  events: { liveId: string; focus: Record<string, unknown> }[],
): Promise<NumberedEvent[] | undefined> {
  return withTransaction(pool, async (c) => {
    const sub = await c.query<{ last_event_number: string; status: string }>(
      `SELECT last_event_number, status FROM fhir_subscriptions WHERE id = $1 FOR UPDATE`,
      [subscriptionId],
    );
    if (sub.rows[0]?.status !== 'active') return undefined;
    const known = await c.query<{ event_number: string; live_id: string; occurred_at: Date }>(
      `SELECT event_number, live_id, occurred_at FROM fhir_subscription_events WHERE subscription_id = $1 AND live_id = ANY($2::text[])`,
      [subscriptionId, events.map((e) => e.liveId)],
    );
    const numberOf = new Map(
      known.rows.map((r) => [r.live_id, { number: Number(r.event_number), occurredAt: r.occurred_at.toISOString() }]),
    );
    let last = Number(sub.rows[0].last_event_number);
    const fresh: { number: number; liveId: string; focus: Record<string, unknown> }[] = [];
    for (const e of events) {
      if (numberOf.has(e.liveId)) continue;
      fresh.push({ number: ++last, liveId: e.liveId, focus: e.focus });
      numberOf.set(e.liveId, { number: last, occurredAt: '' });
    }
    if (fresh.length > 0) {
      const { rows } = await c.query<{ occurred_at: Date }>(
        `INSERT INTO fhir_subscription_events (subscription_id, event_number, live_id, focus)
         SELECT $1, n, l, f FROM unnest($2::bigint[], $3::text[], $4::jsonb[]) AS t(n, l, f) RETURNING occurred_at`,
        [subscriptionId, fresh.map((f) => f.number), fresh.map((f) => f.liveId), fresh.map((f) => JSON.stringify(f.focus))],
      );
      const at = must(rows[0], 'the first inserted event row').occurred_at.toISOString(); // the transaction's time: the same for every row
      for (const f of fresh) numberOf.set(f.liveId, { number: f.number, occurredAt: at });
      await c.query(`UPDATE fhir_subscriptions SET last_event_number = $2, last_event_id = $3, updated_at = now() WHERE id = $1`, [
        subscriptionId,
        last,
        must(fresh.at(-1), 'the last fresh event').liveId,
      ]);
      // prune past the bound once every thousand numbers
      if (Math.floor(last / 1_000) > Math.floor((last - fresh.length) / 1_000)) {
        await c.query(`DELETE FROM fhir_subscription_events WHERE subscription_id = $1 AND event_number <= $2`, [
          subscriptionId,
          last - EVENTS_KEPT,
        ]);
      }
    }
    return events.map((e) => ({ ...must(numberOf.get(e.liveId), 'the number given to this event'), liveId: e.liveId, focus: e.focus }));
  });
}

/** Events `since`..`until` (inclusive), ascending, at most `limit`. */
export async function eventsBetween(
  db: Queryable,
  subscriptionId: string,
  since: number,
  until: number,
  limit: number,
): Promise<NumberedEvent[]> {
  const { rows } = await db.query<{ event_number: string; live_id: string; occurred_at: Date; focus: Record<string, unknown> }>(
    `SELECT event_number, live_id, occurred_at, focus FROM fhir_subscription_events
      WHERE subscription_id = $1 AND event_number BETWEEN $2 AND $3 ORDER BY event_number LIMIT $4`,
    [subscriptionId, since, until, limit],
  );
  return rows.map((r) => ({ number: Number(r.event_number), liveId: r.live_id, occurredAt: r.occurred_at.toISOString(), focus: r.focus }));
}
