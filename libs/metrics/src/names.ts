/**
 * Every Vitalis metric name, in one place: the apps create their series from these constants,
 * and the alerting rules (infra/prometheus/rules.yml), the Grafana dashboard
 * (infra/grafana/vitalis.json) and their tests check against this list.
 *
 * Label rule: a label value comes from a small closed set (a route pattern, a status code, an
 * OAuth error code, a transport, a partition number, a projection name). Never a patient id, a
 * name, a token or a client id: PHI and secrets stay out of the monitoring system, and unbounded
 * values would explode its series count.
 */
export const METRIC = {
  // gateway HTTP
  httpRequests: 'vitalis_http_requests_total',
  httpDuration: 'vitalis_http_request_duration_seconds',
  // gateway OAuth
  tokensIssued: 'vitalis_tokens_issued_total',
  tokensRefused: 'vitalis_tokens_refused_total',
  // gateway audit trail
  auditWriteFailures: 'vitalis_audit_write_failures_total',
  // gateway live hub
  liveSubscribers: 'vitalis_live_subscribers',
  liveDelivered: 'vitalis_live_events_delivered_total',
  liveLagged: 'vitalis_live_lagged_subscribers_total',
  liveGaps: 'vitalis_live_gaps_total',
  liveResyncs: 'vitalis_live_resyncs_total',
  liveDeviceToSubscriber: 'vitalis_live_device_to_subscriber_seconds',
  alertDelivery: 'vitalis_alert_delivery_seconds',
  // gateway bedside alarms (issue 31)
  alarmTimeToAcknowledge: 'vitalis_alarm_time_to_acknowledge_seconds',
  // ingest
  ingestBatches: 'vitalis_ingest_batches_total',
  ingestMessages: 'vitalis_ingest_messages_total',
  ingestRowsStored: 'vitalis_ingest_rows_stored_total',
  ingestDuplicates: 'vitalis_ingest_duplicates_total',
  ingestDeadLettered: 'vitalis_ingest_dead_lettered_total',
  ingestRedeliveredSkipped: 'vitalis_ingest_redelivered_skipped_total',
  ingestAssignmentChecks: 'vitalis_ingest_assignment_checks_total',
  ingestBatchSize: 'vitalis_ingest_batch_messages',
  ingestTransaction: 'vitalis_ingest_transaction_seconds',
  ingestDeviceToPublish: 'vitalis_ingest_device_to_publish_seconds',
  ingestPublishFailures: 'vitalis_ingest_live_publish_failures_total',
  ingestIsolations: 'vitalis_ingest_isolations_total',
  ingestRefusedRows: 'vitalis_ingest_refused_rows_total',
  ingestIsolationStatements: 'vitalis_ingest_isolation_statements_total',
  ingestPartitionStalled: 'vitalis_ingest_partition_stalled_seconds',
  newestObservationAge: 'vitalis_vitals_newest_observation_age_seconds',
  alertsRaised: 'vitalis_alerts_total',
  kafkaConsumerLag: 'vitalis_kafka_consumer_lag',
  // projector
  eventstoreHead: 'vitalis_eventstore_head_position',
  projectionPosition: 'vitalis_projection_position',
  projectionLag: 'vitalis_projection_lag_events',
  alarmsPerBedHour: 'vitalis_alarms_per_bed_hour',
  alarmsEscalated: 'vitalis_alarms_escalated_total',
  deviceDisconnectAlarmsActive: 'vitalis_device_disconnect_alarms_active',
  // simulator
  simulatorSent: 'vitalis_simulator_observations_sent_total',
  // every app
  pgPool: 'vitalis_pg_pool_clients',
  redisUp: 'vitalis_redis_up',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** Series prom-client's default collectors add to every app (process and Node.js runtime). */
export const DEFAULT_METRIC_PREFIXES = ['process_', 'nodejs_'] as const;
