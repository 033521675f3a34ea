/**
 * One zod-validated configuration loader for every Vitalis app.
 *
 * Each app declares the env vars it reads as a zod shape (with defaults and
 * descriptions); `loadConfig` parses `process.env` once at start. A bad value
 * stops the app with one line naming the variable, never a stack trace.
 */
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Parses `env` against `shape`; throws ConfigError naming every bad variable. */
export function parseConfig<S extends z.ZodRawShape>(shape: S, env: Env = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const raw = env[name];
    const got = raw === undefined ? 'unset' : `got ${JSON.stringify(raw)}`;
    return `${name}: ${issue.message} (${got})`;
  });
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

/**
 * parseConfig for an app's entry point: prints one clear line and exits 78 (EX_CONFIG) on error.
 * `derive` computes settings from several variables and may throw ConfigError too.
 */
export function loadConfig<S extends z.ZodRawShape, T = z.infer<z.ZodObject<S>>>(
  app: string,
  shape: S,
  derive: (config: z.infer<z.ZodObject<S>>) => T = (config) => config as T,
  env: Env = process.env,
): T {
  try {
    return derive(parseConfig(shape, env));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`vitalis-${app}: ${err.message}\n`);
    process.exit(78);
  }
}

// ---- field builders: small, explicit, reusable --------------------------------------------

const PORT_MESSAGE = 'must be a TCP port from 1 to 65535';
export const port = (fallback: number) =>
  z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(1, PORT_MESSAGE).max(65535, PORT_MESSAGE).default(fallback);

const POSITIVE_MESSAGE = 'must be a positive integer';
export const positiveInt = (fallback: number) =>
  z.coerce.number({ error: POSITIVE_MESSAGE }).int(POSITIVE_MESSAGE).positive(POSITIVE_MESSAGE).default(fallback);

const NON_NEGATIVE_MESSAGE = 'must be an integer of 0 or more';
export const nonNegativeInt = (fallback: number) =>
  z.coerce.number({ error: NON_NEGATIVE_MESSAGE }).int(NON_NEGATIVE_MESSAGE).min(0, NON_NEGATIVE_MESSAGE).default(fallback);

export const url = (fallback: string, protocols: readonly string[]) =>
  z
    .string()
    .default(fallback)
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL with scheme ${protocols.join(' or ')}`,
    );

/** An http(s) URL, or nothing (unset or empty: an empty variable in a manifest means "not set"). */
export const optionalHttpUrl = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => {
      if (value === undefined) return true;
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'must be a URL with scheme http: or https:');

/** "host:port,host:port" list, e.g. Kafka bootstrap brokers. */
export const hostPortList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((value) => value.split(',').every((hp) => /^[^:\s,]+:\d{1,5}$/.test(hp.trim())), 'must be a comma-separated list of host:port')
    .transform((value) => value.split(',').map((hp) => hp.trim()));

export const logLevel = () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const boolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * The apps connect as the least-privileged `vitalis_app` (libs/db migration 0013); the migration
 * step connects as the owner of the schema. Defaults match infra/bin/stack (trust auth on 127.0.0.1).
 */
export const DEFAULT_DATABASE_URL = 'postgres://vitalis_app@127.0.0.1:55432/vitalis';
export const DEFAULT_MIGRATION_DATABASE_URL = 'postgres://postgres@127.0.0.1:55432/vitalis';

/** The migration step's settings (`npm run migrate`): the owner's connection, never an app's. */
export const migrationShape = {
  MIGRATION_DATABASE_URL: url(DEFAULT_MIGRATION_DATABASE_URL, ['postgres:', 'postgresql:']),
} as const;

/** Settings every app shares: where the infrastructure is and how to log. Defaults match infra/bin/stack. */
export const infraShape = {
  /**
   * Unset means production: safe defaults unless a developer opts out (`make run` sets
   * development, vitest sets test). Production refuses development secrets and demo data.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  LOG_LEVEL: logLevel(),
  DATABASE_URL: url(DEFAULT_DATABASE_URL, ['postgres:', 'postgresql:']),
  DATABASE_POOL_MAX: positiveInt(20),
  REDIS_URL: url('redis://127.0.0.1:56379', ['redis:', 'rediss:']),
  KAFKA_BROKERS: hostPortList('127.0.0.1:59092'),
  /**
   * The topics an app creates when they are missing: copies of every message, and how many must
   * hold a write before it is acknowledged. 1 and 1 for the single development broker; 3 and 2 on
   * a production cluster of three or more brokers (docs/operations.md#topology).
   */
  KAFKA_REPLICATION_FACTOR: positiveInt(1),
  KAFKA_MIN_INSYNC_REPLICAS: positiveInt(1),
} as const;

export type InfraConfig = z.infer<z.ZodObject<typeof infraShape>>;

/** The topic durability the apps create topics with; an in-sync minimum above the copies could never be met. */
export function kafkaTopicDurability(config: Pick<InfraConfig, 'KAFKA_REPLICATION_FACTOR' | 'KAFKA_MIN_INSYNC_REPLICAS'>): {
  replicationFactor: number;
  minInsyncReplicas: number;
} {
  if (config.KAFKA_MIN_INSYNC_REPLICAS > config.KAFKA_REPLICATION_FACTOR) {
    throw new ConfigError(
      `invalid configuration: KAFKA_MIN_INSYNC_REPLICAS: must not exceed KAFKA_REPLICATION_FACTOR (${config.KAFKA_MIN_INSYNC_REPLICAS} > ${config.KAFKA_REPLICATION_FACTOR}): no write could ever be acknowledged`,
    );
  }
  return { replicationFactor: config.KAFKA_REPLICATION_FACTOR, minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS };
}

/**
 * Probes and shutdown (libs/runtime), the same for every app. docs/operations.md "Probes and
 * shutdown" tells the sequence; the orchestrator's grace (terminationGracePeriodSeconds) must
 * exceed SHUTDOWN_GRACE_SECONDS.
 */
export const lifecycleShape = {
  /** After SIGTERM, how long readiness answers 503 before anything closes (load balancers stop sending). */
  READINESS_DRAIN_SECONDS: nonNegativeInt(5),
  /** The whole shutdown (the drain wait included) must end within this, else the app exits 1. */
  SHUTDOWN_GRACE_SECONDS: positiveInt(25),
  /** How long a readiness check waits for one dependency before calling it down. */
  READINESS_TIMEOUT_MS: positiveInt(1_000),
} as const;

const PROBE_PORT_MESSAGE = 'must be a TCP port from 1 to 65535, or 0 for no probe server';

/**
 * The probe server of an app without an HTTP surface (ingest, projector). PROBE_PORT unset: on at
 * the app's fixed port in production, off in development and test (several may run on one host).
 */
export const probeServerShape = {
  /** 127.0.0.1 by default; a Kubernetes pod sets 0.0.0.0 so the kubelet reaches it. */
  PROBE_HOST: z.string().min(1).default('127.0.0.1'),
  PROBE_PORT: z.coerce
    .number({ error: PROBE_PORT_MESSAGE })
    .int(PROBE_PORT_MESSAGE)
    .min(0, PROBE_PORT_MESSAGE)
    .max(65535, PROBE_PORT_MESSAGE)
    .optional(),
} as const;

/** Where the probe server listens, or undefined when it is off. */
export function probeServerAddress(
  config: { NODE_ENV: InfraConfig['NODE_ENV']; PROBE_HOST: string; PROBE_PORT?: number | undefined },
  productionPort: number,
): { host: string; port: number } | undefined {
  const port = config.PROBE_PORT ?? (config.NODE_ENV === 'production' ? productionPort : 0);
  return port === 0 ? undefined : { host: config.PROBE_HOST, port };
}

/** The runtime's shutdown timings; a drain wait that leaves no time to close is a config error. */
export function shutdownTimings(config: { READINESS_DRAIN_SECONDS: number; SHUTDOWN_GRACE_SECONDS: number }): {
  drainMs: number;
  graceMs: number;
} {
  if (config.READINESS_DRAIN_SECONDS >= config.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError(
      `invalid configuration: READINESS_DRAIN_SECONDS (${config.READINESS_DRAIN_SECONDS}) must be less than SHUTDOWN_GRACE_SECONDS (${config.SHUTDOWN_GRACE_SECONDS}): the drain wait is part of the grace period`,
    );
  }
  return { drainMs: config.READINESS_DRAIN_SECONDS * 1_000, graceMs: config.SHUTDOWN_GRACE_SECONDS * 1_000 };
}

/**
 * The Prometheus scrape endpoint every app serves (@vitalis/metrics): GET /metrics on its own
 * listener, loopback by default (bind it to the pod network to let Prometheus in). Each app has
 * its own default port so the three run side by side on one host.
 */
export const metricsShape = (defaultPort: number) => ({
  /** Unset: on, except under NODE_ENV=test, where many app processes share one host and its ports. */
  METRICS_ENABLED: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true' || value === '1' || value === 'yes')),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: port(defaultPort),
});

/** Where an app's metrics listener opens, or undefined when it is off (metricsShape). */
export function metricsListenerAddress(config: {
  NODE_ENV: InfraConfig['NODE_ENV'];
  METRICS_ENABLED?: boolean | undefined;
  METRICS_HOST: string;
  METRICS_PORT: number;
}): { host: string; port: number } | undefined {
  const enabled = config.METRICS_ENABLED ?? config.NODE_ENV !== 'test';
  return enabled ? { host: config.METRICS_HOST, port: config.METRICS_PORT } : undefined;
}

/**
 * OpenTelemetry traces (@vitalis/tracing), under the standard OTEL_* names so an operator's usual
 * settings work. Off unless an OTLP endpoint is set: no endpoint, no spans, no headers, no cost.
 * The exporter reads its other standard settings itself (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT,
 * _COMPRESSION), as does the batch processor (OTEL_BSP_*).
 */
export const tracingShape = {
  /** Base URL of an OTLP/HTTP collector (`/v1/traces` is appended), e.g. http://otel-collector:4318. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalHttpUrl(),
  /** The full traces URL, used as is (wins over the base URL). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalHttpUrl(),
  /** true: no tracing even with an endpoint (the SDK's standard kill switch). */
  OTEL_SDK_DISABLED: boolean(false),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio', 'always_on', 'always_off', 'traceidratio'])
    .default('parentbased_always_on'),
  /** The ratio of the *traceidratio samplers, 0..1 (default 1). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
};
export type TracingConfig = z.infer<z.ZodObject<typeof tracingShape>>;

/**
 * FHIR Bulk Data export (docs/export.md): the gateway kicks off and serves files, the projector's
 * export worker writes them; both read the same folder.
 */
export const exportShape = {
  /** Where export files live. Unset: the project's .data/exports/<database> folder. */
  EXPORT_STORAGE_DIR: z.string().min(1).optional(),
  /** An NDJSON file is closed once it holds this many bytes (the line that crosses it included). */
  EXPORT_MAX_FILE_BYTES: positiveInt(64 * 1024 * 1024),
  /** How long a finished export's files stay downloadable. */
  EXPORT_FILE_TTL_SECONDS: positiveInt(86_400),
  /** Exports one client may have queued or running at once (429 beyond). */
  EXPORT_MAX_ACTIVE_PER_CLIENT: positiveInt(2),
  /** The Retry-After a running export's status answers with. */
  EXPORT_RETRY_AFTER_SECONDS: positiveInt(2),
  /** A worker's claim on a job; a job whose worker died is resumed by another after this. */
  EXPORT_LEASE_MS: positiveInt(30_000),
  /** How often the projector's export worker looks for queued jobs (and expired files). */
  EXPORT_POLL_INTERVAL_MS: positiveInt(1_000),
  /**
   * TEST ONLY, refused in production: comma-separated client ids whose export jobs the worker may
   * claim (empty: every queued job). Lets a test run a real worker process beside other tests' exports.
   */
  EXPORT_WORKER_ONLY_CLIENTS: z.string().default(''),
  /** Set: export files go to this S3-compatible bucket instead of EXPORT_STORAGE_DIR (which must exist). */
  EXPORT_S3_BUCKET: z.string().min(3).optional(),
  /** The S3-compatible endpoint (path-style requests). */
  EXPORT_S3_ENDPOINT: url('https://s3.amazonaws.com', ['http:', 'https:']),
  EXPORT_S3_REGION: z.string().min(1).default('us-east-1'),
  EXPORT_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  EXPORT_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Key prefix inside the bucket. Unset: the database name (one folder per database). */
  EXPORT_S3_PREFIX: z.string().optional(),
} as const;

/**
 * The vitals' bounded device clocks (@vitalis/schemas clock.ts; docs/vitals.md, "Bounded device clocks"):
 * the gateway refuses (422), and the ingest dead-letters, an observation whose effective_at is
 * more than VITALS_MAX_CLOCK_SKEW_SECONDS ahead of the time it was received, or more than
 * VITALS_RETENTION_DAYS behind it (the projector drops older partitions with the same setting).
 * The defaults are the schemas' DEFAULT_MAX_CLOCK_SKEW_SECONDS and DEFAULT_RETENTION_DAYS
 * (test/unit/vitals/storage-contract.test.ts keeps them equal). Set both alike on the gateway, ingest and projector.
 */
export const vitalsClockShape = {
  /** Raw vitals older than this many days are dropped by the projector, and refused when received. */
  VITALS_RETENTION_DAYS: positiveInt(30),
  /** How far (seconds) a device clock may be ahead: a later effective_at is refused. */
  VITALS_MAX_CLOCK_SKEW_SECONDS: positiveInt(300),
};
