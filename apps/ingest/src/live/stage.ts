/**
 * The ingest's live stage, run for every committed batch BEFORE its Kafka offsets are committed:
 *  1. evaluate the alarm conditions (./rules.ts, from the site's AlarmSettings) on the batch's
 *     observations, in offset order;
 *  2. append raised/cleared alerts to the event store, all the batch's patients in one statement,
 *     each patient's in order (@vitalis/live `appendAlertEvents`: an alarm storm costs one commit,
 *     not one per alert, before the batch is published); idempotent, a failure fails the batch,
 *     which Kafka then redelivers: the rows are skipped as duplicates, the alerts re-evaluated;
 *  3. publish the batch (observations + alerts, with positions) on Redis pub/sub for the gateways,
 *     each observation as its stored row reads back (@vitalis/live `storedObservation`), so the
 *     live path and the replay path carry the same event for the same id.
 * With tracing on, the publish is a PRODUCER span under the batch's CONSUMER span, and the
 * message carries its `traceparent` (LiveBatch.trace) for the gateways' delivery spans.
 * A publish failure is logged, not thrown: the data is durable, and gateways detect the hole in
 * the partition's offset range on the next message and refill their subscribers from the log.
 */
import { SpanKind, trace, type Context } from '@opentelemetry/api';
import { DEFAULT_ALARM_SETTINGS, escalationDueAt, type AlarmPriority, type AlarmSettings } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import type { Logger } from '@vitalis/log';
import type { IngestMetrics } from '@vitalis/metrics';
import type { Redis } from '@vitalis/redis';
import {
  activeAlerts,
  alertEventId,
  observationK,
  alertEventType,
  appendAlertEvents,
  encodeBatch,
  liveChannel,
  storedObservation,
  type AlertData,
  type AlertEventToAppend,
  type LiveEvent,
} from '@vitalis/live';
import { isEcg, type VitalsObservation } from '@vitalis/schemas';
import { SPAN_ATTR, spanFailed, TRACING_OFF, traceparentOf, type Tracing } from '@vitalis/tracing';
import { AlertEngine, type AlertDecision } from './rules';

export interface CommittedBatch {
  partition: number;
  first: number;
  last: number;
  /**
   * The batch's good observations whose message is the stored row (new, or redelivered), in (offset,
   * item) order; item: index in the record (frames); steps: an ECG chunk's potentials as its row
   * stores them (whole 0.1 µV steps, derived once by the decoder), when the batch has them;
   * effectiveMs: its effective time in ms since the epoch, read once by the decoder.
   */
  items: { offset: number; item?: number; observation: VitalsObservation; steps?: Int32Array | null; effectiveMs: number }[];
  /** The batch's span context (tracing on). */
  trace?: Context;
}

export interface LiveStageOptions {
  pool: Pool;
  redis: Redis;
  topic: string;
  logger: Logger;
  /** Off in benchmarks that measure the bare write path. */
  alerts?: boolean;
  /** The alarm conditions and escalation times (VITALIS_ALARMS applied to the defaults; default: the defaults). */
  alarms?: AlarmSettings;
  /** Alerts appended, device-to-publish latency, publish failures. */
  metrics?: IngestMetrics;
  /** The publish span (off by default). */
  tracing?: Tracing;
}

export interface LiveStage {
  afterCommit: (batch: CommittedBatch) => Promise<void>;
  stats: { published: number; publishFailures: number; alerts: number };
  stop: () => void;
}

/** Patients this instance has not seen yet: their active alerts restored into the engine first (one query). */
async function restoreUnseen(engine: AlertEngine, pool: LiveStageOptions['pool'], batch: CommittedBatch): Promise<void> {
  const unseen = [...new Set(batch.items.map((i) => i.observation.patient_id))].filter((p) => !engine.knows(p));
  if (unseen.length === 0) return;
  const active = await activeAlerts(pool, unseen);
  for (const p of unseen) engine.restore(p, active.get(p) ?? []);
}

/**
 * A committed batch's live events in (offset, item, k) order: each observation as its stored row
 * reads back, then the alerts its reading decided (alerts on), and those alerts to append.
 */
export function batchEvents(
  engine: AlertEngine,
  settings: AlarmSettings,
  batch: CommittedBatch,
  alertsOn: boolean,
): { events: LiveEvent[]; alerts: AlertEventToAppend[]; decided: AlertDecision[] } {
  const events: LiveEvent[] = [];
  const alerts: AlertEventToAppend[] = [];
  const decided: AlertDecision[] = [];
  for (const { offset, item, observation: o, steps, effectiveMs } of batch.items) {
    // What the replay will read back from the row, not the observation as received: one event id, one byte sequence.
    const at = observationK(item ?? 0);
    events.push({
      kind: 'observation',
      partition: batch.partition,
      offset,
      k: at,
      patient_id: o.patient_id,
      data: storedObservation(o, steps),
    });
    if (!alertsOn || isEcg(o)) continue;
    const value = (o as { value: number }).value;
    const decisions = engine.evaluate({ patient_id: o.patient_id, code: o.code, value, at: effectiveMs });
    let k = at;
    for (const d of decisions) {
      k += 1;
      const data = alertData(settings, o, batch.partition, offset, d);
      alerts.push({ data, position: { partition: batch.partition, offset, k } });
      decided.push(d);
      events.push({
        kind: 'alert',
        partition: batch.partition,
        offset,
        k,
        patient_id: o.patient_id,
        type: alertEventType(d.state),
        data,
      });
    }
  }
  return { events, alerts, decided };
}

export function createLiveStage(opts: LiveStageOptions): LiveStage {
  const settings = opts.alarms ?? DEFAULT_ALARM_SETTINGS;
  const engine = new AlertEngine(settings);
  const channel = liveChannel(opts.topic);
  const stats = { published: 0, publishFailures: 0, alerts: 0 };
  const tracing = opts.tracing ?? TRACING_OFF;
  const sweep = setInterval(() => engine.sweep(15 * 60_000), 60_000);
  sweep.unref();

  const afterCommit = async (batch: CommittedBatch) => {
    if (opts.alerts !== false) await restoreUnseen(engine, opts.pool, batch);
    const { events, alerts, decided } = batchEvents(engine, settings, batch, opts.alerts !== false);
    // durable before they are published (a card opening at once reads them back from the event store)
    if (alerts.length > 0) await appendAlertEvents(opts.pool, alerts);
    stats.alerts += decided.length;
    for (const d of decided) opts.metrics?.alert(d.priority, d.rule, d.state);
    if (opts.redis.status !== 'ready') {
      // Never hold the ingest for the fan-out: the rows are durable, gateways refill the gap.
      stats.publishFailures += 1;
      opts.metrics?.publishFailed();
      return;
    }
    const parent = batch.trace;
    const span = tracing.enabled && parent ? startPublishSpan(tracing, channel, events.length, parent) : undefined;
    const traceparent = span && parent ? traceparentOf(trace.setSpan(parent, span)) : undefined;
    try {
      await opts.redis.publish(
        channel,
        encodeBatch({
          v: 1,
          partition: batch.partition,
          first: batch.first,
          last: batch.last,
          events,
          ...(traceparent ? { trace: traceparent } : {}),
        }),
      );
      stats.published += 1;
      if (opts.metrics) observePublished(opts.metrics, batch.items);
    } catch (err) {
      if (span) spanFailed(span, err);
      stats.publishFailures += 1;
      opts.metrics?.publishFailed();
      opts.logger.warn({ err, partition: batch.partition }, 'live publish failed; gateways will refill from the append log');
    } finally {
      span?.end();
    }
  };
  return { afterCommit, stats, stop: () => clearInterval(sweep) };
}

/** Device -> publication latency of a published batch's observations. */
function observePublished(metrics: IngestMetrics, items: CommittedBatch['items']): void {
  const now = Date.now();
  for (const { effectiveMs } of items) metrics.published((now - effectiveMs) / 1_000);
}

/** The PRODUCER span of one live publish, under the batch's CONSUMER span. */
function startPublishSpan(tracing: Tracing, channel: string, events: number, parent: Context) {
  return tracing.tracer.startSpan(
    `publish ${channel}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        [SPAN_ATTR.messagingSystem]: 'redis',
        [SPAN_ATTR.messagingOperationName]: 'publish',
        [SPAN_ATTR.messagingOperationType]: 'send',
        [SPAN_ATTR.messagingDestination]: channel,
        [SPAN_ATTR.messagingBatchCount]: events,
      },
    },
    parent,
  );
}

/** The R4 core extension carrying a Flag's alarm priority (IHE PCD TF-2 Table B.8-4 alert priority), and its codes. */
export const FLAG_PRIORITY_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/flag-priority';
export const FLAG_PRIORITY_SYSTEM = 'http://hl7.org/fhir/flag-priority-code';
const FLAG_PRIORITY: Record<AlarmPriority, { code: string; display: string }> = {
  high: { code: 'PH', display: 'High priority' },
  medium: { code: 'PM', display: 'Medium priority' },
  low: { code: 'PL', display: 'Low priority' },
};

/**
 * The event data of one decision. A raise carries the condition's priority (and `severity`, the
 * same value, for readers of the old field), kind, latching, label and when it escalates if nobody
 * acknowledges it (`due_at`, from its effective time; null for a priority that never escalates).
 */
export function alertData(settings: AlarmSettings, o: VitalsObservation, partition: number, offset: number, d: AlertDecision): AlertData {
  const triggered_by = { partition, offset, device_id: o.device_id, seq: o.seq, code: o.code, effective_at: o.effective_at };
  const base = { rule: d.rule, state: d.state, patient_id: o.patient_id, triggered_by } as AlertData;
  // The alert's identity is the raise that opened it; a clear names the raise it closes only by rule.
  const alert_id = alertEventId({ ...base, state: d.state } as AlertData);
  const priority = FLAG_PRIORITY[d.priority];
  return {
    alert_id,
    rule: d.rule,
    state: d.state,
    patient_id: o.patient_id,
    priority: d.priority,
    severity: d.priority,
    kind: d.kind,
    latching: d.latching,
    label: d.label,
    message: d.message,
    value: d.value,
    ...(d.state === 'raised' ? { due_at: escalationDueAt(settings, d.priority, o.effective_at) } : {}),
    triggered_by,
    flag: {
      resourceType: 'Flag',
      extension: [
        {
          url: FLAG_PRIORITY_EXTENSION,
          valueCodeableConcept: { coding: [{ system: FLAG_PRIORITY_SYSTEM, ...priority }], text: d.priority },
        },
      ],
      status: d.state === 'raised' ? 'active' : 'inactive',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/flag-category', code: 'clinical', display: 'Clinical' }] }],
      code: { coding: [{ system: 'urn:vitalis:alert-rule', code: d.rule, display: d.label }], text: d.message },
      subject: { reference: `Patient/${o.patient_id}` },
      period: d.state === 'raised' ? { start: o.effective_at } : { end: o.effective_at },
    },
  };
}
