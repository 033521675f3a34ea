/**
 * What the gateway needs from the outside world, created once in main.ts (or by a test) and
 * handed to buildGateway. Route modules take what they use from here; nothing reaches for globals.
 */
import type { Pool } from '@vitalis/db';
import type { VitalisKafka } from '@vitalis/kafka';
import type { Logger } from '@vitalis/log';
import type { GatewayMetrics } from '@vitalis/metrics';
import type { Redis } from '@vitalis/redis';
import type { Tracing } from '@vitalis/tracing';
import type { RemoteKeySets } from './remote-key-sets';
import type { GatewayConfig } from './config';

export interface GatewayDeps {
  config: GatewayConfig;
  pool: Pool;
  redis: Redis;
  kafka: VitalisKafka;
  logger: Logger;
  /** Outbound fetches of JSON Web Key Sets (client and trusted-issuer jwks_uri), with their cache. */
  keySets: RemoteKeySets;
  /** Its Prometheus series (metrics.ts); main.ts serves the registry on METRICS_PORT. */
  metrics: GatewayMetrics;
  /** Its traces (tracing.ts); absent or TRACING_OFF: no spans (the default, without an OTLP endpoint). */
  tracing?: Tracing;
}
