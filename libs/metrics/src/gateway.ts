/**
 * The gateway's own series: HTTP by route pattern, OAuth token issuance and refusals, audit write
 * failures, and the live hub's delivery latencies. Hot-path updates go through pre-bound children
 * (cached per label combination, all from closed sets), so a request costs a map lookup.
 */
import client from 'prom-client';
import { METRIC } from './names';

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Request latency: a fast read is a few ms, a token request pays scrypt (~50-100 ms), an export can take seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Device clock to hand-over: the ingest's fetch wait (≤ 500 ms) and group commit dominate; past 5 s something is wrong. */
export const DELIVERY_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
/**
 * Raise to acknowledgement: a high-priority alarm answered at the bedside takes seconds, one that
 * escalated (60 s high, 180 s medium by default) minutes; past an hour nobody was watching.
 */
export const ACKNOWLEDGE_BUCKETS = [5, 10, 20, 30, 60, 120, 180, 300, 600, 1_200, 1_800, 3_600];

export interface GatewayMetrics {
  registry: client.Registry;
  /** One finished HTTP request. `route` is the matched route pattern (undefined: no route matched). */
  httpRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  tokenIssued(grantType: string): void;
  tokenRefused(grantType: string, reason: string): void;
  /** Seconds from the device's effective time to the hub handing the observation to its subscribers. */
  observationDelivered(seconds: number): void;
  /** The same for an alert event, by severity. */
  alertDelivered(severity: string, seconds: number): void;
  /** A clinician acknowledged a bedside alarm `seconds` after it was raised (priority: high | medium | low). */
  alarmAcknowledged(priority: string, seconds: number): void;
}

export function createGatewayMetrics(registry: client.Registry): GatewayMetrics {
  const requests = new client.Counter({
    name: METRIC.httpRequests,
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: METRIC.httpDuration,
    help: 'HTTP request latency (seconds) by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const issued = new client.Counter({
    name: METRIC.tokensIssued,
    help: 'Access tokens issued by the token endpoint, by grant type',
    labelNames: ['grant_type'] as const,
    registers: [registry],
  });
  const refused = new client.Counter({
    name: METRIC.tokensRefused,
    help: 'Token requests refused, by grant type and reason (the OAuth error code, or rate_limited)',
    labelNames: ['grant_type', 'reason'] as const,
    registers: [registry],
  });
  const deviceToSubscriber = new client.Histogram({
    name: METRIC.liveDeviceToSubscriber,
    help: "Seconds from an observation's effective time (device clock) to its hand-over to live subscribers",
    buckets: DELIVERY_BUCKETS,
    registers: [registry],
  });
  const alertDelivery = new client.Histogram({
    name: METRIC.alertDelivery,
    help: "Seconds from the observation that raised or cleared an alert to the alert's hand-over to live subscribers, by severity",
    labelNames: ['severity'] as const,
    buckets: DELIVERY_BUCKETS,
    registers: [registry],
  });
  const timeToAcknowledge = new client.Histogram({
    name: METRIC.alarmTimeToAcknowledge,
    help: "Seconds from a bedside alarm's raise (the confirming observation's time) to its acknowledgement by a clinician, by priority",
    labelNames: ['priority'] as const,
    buckets: ACKNOWLEDGE_BUCKETS,
    registers: [registry],
  });

  type Bound = { count: ReturnType<typeof requests.labels>; latency: ReturnType<typeof duration.labels> };
  const http = new Map<string, Bound>();
  return {
    registry,
    httpRequest(method, route, statusCode, seconds) {
      const m = HTTP_METHODS.has(method) ? method : 'OTHER';
      const r = route ?? 'unmatched';
      const key = `${m} ${statusCode} ${r}`;
      let bound = http.get(key);
      if (!bound) {
        bound = {
          count: requests.labels(m, r, String(statusCode)),
          latency: duration.labels(m, r, `${Math.floor(statusCode / 100)}xx`),
        };
        http.set(key, bound);
      }
      bound.count.inc();
      bound.latency.observe(seconds);
    },
    tokenIssued: (grantType) => issued.labels(grantType).inc(),
    tokenRefused: (grantType, reason) => refused.labels(grantType, reason).inc(),
    observationDelivered: (seconds) => deviceToSubscriber.observe(Math.max(0, seconds)),
    alertDelivered: (severity, seconds) => alertDelivery.labels(severity).observe(Math.max(0, seconds)),
    alarmAcknowledged: (priority, seconds) => timeToAcknowledge.labels(priority).observe(Math.max(0, seconds)),
  };
}
