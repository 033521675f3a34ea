import { z } from 'zod';
import { boolean, ConfigError, infraShape, port, positiveInt } from '@vitalis/config';

export const DEV_KEY_SECRET = 'vitalis-development-only-key-secret';

/** Every env var the gateway reads, with its default. The README's config table mirrors this. */
export const gatewayConfigShape = {
  ...infraShape,
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port(8080),
  /** The externally visible base URL (issuer, discovery documents, problem `type`s). Defaults to http://127.0.0.1:PORT. */
  PUBLIC_BASE_URL: z.string().url('must be an absolute URL').optional(),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT_BYTES: positiveInt(1_048_576),
  /** How long a health check waits for one dependency before calling it down. */
  HEALTH_TIMEOUT_MS: positiveInt(2_000),
  /** Lifetime of access tokens issued by the token endpoint. */
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(900),
  /** Sandbox (POST|GET /api/v1/sandbox): on by default outside production. */
  SANDBOX_ENABLED: boolean(true),
  SANDBOX_TOKEN_TTL_SECONDS: positiveInt(900),
  /** Sandbox credentials per client IP per window. */
  SANDBOX_RATE_LIMIT: positiveInt(10),
  SANDBOX_RATE_WINDOW_SECONDS: positiveInt(3_600),
  /** Encrypts the token signing keys at rest. The development default is refused in production. */
  KEY_ENCRYPTION_SECRET: z.string().min(16, 'must be at least 16 characters').default(DEV_KEY_SECRET),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>> & { baseUrl: string };

export function withBaseUrl(config: z.infer<z.ZodObject<typeof gatewayConfigShape>>): GatewayConfig {
  if (config.NODE_ENV === 'production' && config.KEY_ENCRYPTION_SECRET === DEV_KEY_SECRET) {
    throw new ConfigError('invalid configuration: KEY_ENCRYPTION_SECRET: must be set in production (the development default is public)');
  }
  const baseUrl = (config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
  return { ...config, baseUrl };
}
