export { METRIC, DEFAULT_METRIC_PREFIXES, type MetricName } from './names';
export {
  createRegistry,
  observePool,
  observeRedis,
  mirrorCounter,
  startMetricsServer,
  type Registry,
  type MetricsServer,
  type PoolCounts,
} from './registry';
export { createGatewayMetrics, DELIVERY_BUCKETS, type GatewayMetrics } from './gateway';
export { createIngestMetrics, type IngestMetrics } from './ingest';
export { observeProjections, type ProjectionPositions } from './projector';
export { createAlarmMetrics, perBed, ALARM_PRIORITY_LABELS, type AlarmFigures, type AlarmMetrics } from './alarms';
export { createStallClock, type StallClock } from './stall';
export { readNewestObservation, NEWEST_OBSERVATION_SQL, type NewestObservation, type NewestQueryable } from './newest';
