import { z } from 'zod';
import { infraShape, port, positiveInt } from '@vitalis/config';

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
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>> & { baseUrl: string };

export function withBaseUrl(config: z.infer<z.ZodObject<typeof gatewayConfigShape>>): GatewayConfig {
  const baseUrl = (config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
  return { ...config, baseUrl };
}
