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

export const url = (fallback: string, protocols: readonly string[]) =>
  z
    .string()
    .default(fallback)
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL with scheme ${protocols.join(' or ')}`);

/** "host:port,host:port" list, e.g. Kafka bootstrap brokers. */
export const hostPortList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((value) => value.split(',').every((hp) => /^[^:\s,]+:\d{1,5}$/.test(hp.trim())), 'must be a comma-separated list of host:port')
    .transform((value) => value.split(',').map((hp) => hp.trim()));

export const logLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

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
} as const;

export type InfraConfig = z.infer<z.ZodObject<typeof infraShape>>;

/**
 * The Prometheus scrape endpoint every app serves (@vitalis/metrics): GET /metrics on its own
 * listener, loopback by default (bind it to the pod network to let Prometheus in). Each app has
 * its own default port so the three run side by side on one host.
 */
export const metricsShape = (defaultPort: number) => ({
  METRICS_ENABLED: boolean(true),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: port(defaultPort),
});
