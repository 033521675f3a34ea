/**
 * The gateway's configuration: every environment variable it reads (gatewayConfigShape, each with its
 * default and documentation), parsed and checked once at start, plus what is derived from them (the
 * base URL, the audit checkpoint settings, the trusted proxies and issuers).
 * Long: gatewayConfigShape is a table of some sixty variables, one entry each; the file is that table
 * and the few functions that read it.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { JWK } from 'jose';
import { alarmSettingsVariable, parseAlarmSettings, type AlarmSettings } from '@vitalis/clinical';
import {
  ConfigError,
  exportShape,
  infraShape,
  lifecycleShape,
  nonNegativeInt,
  port,
  positiveInt,
  metricsShape,
  tracingShape,
  vitalsClockShape,
} from '@vitalis/config';
import { TOPICS } from '@vitalis/kafka';
import { ROLES, type Role } from '@vitalis/schemas';
import { keySetUriProblem, parseAllowHosts } from './remote-key-sets';

/** A SOFTWARE_STATEMENT_ISSUERS entry: who may vouch for software, with its keys (auth/software-statement.ts). */
export interface SoftwareStatementIssuer {
  issuer: string;
  jwks: { keys: JWK[] };
  /** The roles this issuer may bind software to. */
  roles: Role[];
}

export interface TrustedIssuer {
  issuer: string;
  jwks_uri?: string;
  jwks?: { keys: JWK[] };
  /** The audience its tokens must carry; default: our issuer or token endpoint. */
  audience?: string;
  /** The role its subjects get here (their scopes count only within it); absent: the public scopes only. */
  role?: Role;
  /** With role `patient`: the claim holding the Vitalis patient id of the subject. */
  patient_claim?: string;
}

const trustedIssuerSchema = z
  .object({
    issuer: z.string().url(),
    jwks_uri: z.string().url().optional(),
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) }).optional(),
    audience: z.string().min(1).optional(),
    role: z.enum(ROLES).optional(),
    patient_claim: z.string().min(1).optional(),
  })
  .refine((t) => Boolean(t.jwks_uri) !== Boolean(t.jwks), 'give exactly one of jwks_uri or jwks')
  .refine((t) => t.role === 'patient' || t.patient_claim === undefined, 'patient_claim goes with role "patient"')
  .refine((t) => t.role !== 'patient' || t.patient_claim !== undefined, 'role "patient" needs patient_claim');

const softwareStatementIssuerSchema = z.object({
  issuer: z.string().min(1),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) }),
  roles: z.array(z.enum(ROLES)).min(1),
});

/** A JSON list in an env var; a parse failure becomes a config error, not a crash. */
function jsonList<T>(item: z.ZodType, shape: string) {
  return z
    .string()
    .default('[]')
    .transform((raw, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a JSON list of ${shape}` });
        return z.NEVER;
      }
      const parsed = z.array(item).safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a JSON list of ${shape}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        });
        return z.NEVER;
      }
      return parsed.data as T[];
    });
}

const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY entry: an address, a CIDR range, or a named range proxy-addr (fastify) knows. */
function isTrustedHop(hop: string): boolean {
  if (PROXY_ADDR_NAMES.has(hop)) return true;
  const [address, bits, extra] = hop.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const trustsEveryAddress = (hop: string) => /^(0\.0\.0\.0|::)\/0$/.test(hop);

export const DEV_KEY_SECRET = 'vitalis-development-only-key-secret';
export const DEV_AUDIT_CHECKPOINT_KEY = 'vitalis-development-only-audit-checkpoint-key';

/** Every env var the gateway reads, with its default. docs/configuration.md's table mirrors this. */
export const gatewayConfigShape = {
  ...infraShape,
  ...lifecycleShape,
  ...exportShape,
  HOST: z.string().min(1).default('127.0.0.1'),
  ...metricsShape(9464),
  ...tracingShape,
  /** Bounded device clocks: POST /api/v1/vitals refuses (422) an effective_at out of bounds. */
  ...vitalsClockShape,
  PORT: port(8080),
  /** The externally visible base URL (issuer, discovery documents, problem `type`s). Defaults to http://127.0.0.1:PORT. */
  PUBLIC_BASE_URL: z.string().url('must be an absolute URL').optional(),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT_BYTES: positiveInt(1_048_576),
  /**
   * The proxies in front of the gateway (an ingress controller), as comma-separated addresses or
   * CIDR ranges (or proxy-addr's names loopback, linklocal, uniquelocal). Empty (the default): no
   * proxy header is trusted and the client address is the socket's. Set: a request whose socket
   * comes from one of them has its client address (per-address limits, audit rows) taken from
   * X-Forwarded-For, read from the right and past the trusted hops only, so a client cannot
   * choose its address by sending the header itself.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((hop) => hop.trim())
        .filter(Boolean),
    )
    .refine((hops) => hops.every(isTrustedHop), 'must be comma-separated IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal)')
    .refine(
      (hops) => !hops.some(trustsEveryAddress),
      'must not trust every address (0.0.0.0/0, ::/0): any client could then name its own address',
    ),
  /** How long a health check waits for one dependency before calling it down. */
  HEALTH_TIMEOUT_MS: positiveInt(2_000),
  /**
   * Health's `pipeline`: a partition of VITALS_TOPIC on which the ingest group (INGEST_GROUP_ID)
   * has made no progress for this long while messages wait is named, and health is `degraded`.
   * 0: the pipeline is reported, never judged.
   */
  HEALTH_STALL_AFTER_MS: nonNegativeInt(300_000),
  /**
   * Health's `pipeline`: once messages have waited this long on a partition while the newest stored
   * observation is older than this, the partition is named delayed and health is `degraded` (the
   * cards show "Data delayed"). An idle pipeline (nothing waiting) is never delayed. 0: never judged.
   */
  HEALTH_DATA_AGE_AFTER_MS: nonNegativeInt(120_000),
  /** The ingest's consumer group, whose progress health reports (the ingest's INGEST_GROUP_ID). */
  INGEST_GROUP_ID: z.string().min(1).default('vitalis-ingest'),
  /** Lifetime of access tokens issued by the token endpoint. */
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(900),
  /**
   * Lifetime of a client_credentials access token (a backend service acting for itself; no user,
   * no refresh). SMART Backend Services: such a token SHOULD NOT live longer than five minutes, so
   * at most 300 in production (tools outside it, such as the contract fuzzer, may hold one longer).
   */
  BACKEND_TOKEN_TTL_SECONDS: positiveInt(300),
  /** Absolute lifetime of a refresh-token family (rotation does not extend it). */
  REFRESH_TOKEN_TTL_SECONDS: positiveInt(30 * 86_400),
  /** Lifetime of an authorization code (single use). */
  AUTH_CODE_TTL_SECONDS: positiveInt(60),
  /** How long a login/consent interaction may stay open. */
  INTERACTION_TTL_SECONDS: positiveInt(600),
  /**
   * Login throttling (auth/login-throttle.ts): failed sign-ins one client address may make per
   * window, every username together; past it that address is refused until the window ends. A
   * ceiling for a ward behind one NAT, not a per-user limit (that is the back-off below).
   */
  LOGIN_ADDRESS_MAX_FAILURES: positiveInt(100),
  /** The address window; also how long a username's failure count at one address lives after its latest failure. */
  LOGIN_FAILURE_WINDOW_SECONDS: positiveInt(900),
  /** Failed sign-ins on one username from one client address before each further attempt from there must wait (a slow-down, never a lock; other addresses are not affected). */
  LOGIN_USER_FREE_FAILURES: positiveInt(5),
  /** The first such wait; it doubles with every further failure, up to LOGIN_USER_MAX_DELAY_SECONDS. */
  LOGIN_USER_DELAY_SECONDS: positiveInt(1),
  LOGIN_USER_MAX_DELAY_SECONDS: positiveInt(60),
  /** Token refusals one client address may record in the audit trail per window (then one summary row). */
  REFUSAL_AUDIT_LIMIT: positiveInt(100),
  REFUSAL_AUDIT_WINDOW_SECONDS: positiveInt(60),
  /**
   * Request rate limits (auth/rate-limits.ts, Redis, shared by every instance). The token,
   * introspection and revocation endpoints (each costs a scrypt hash): requests per client address
   * per window, one budget for the three.
   */
  OAUTH_ADDRESS_RATE_LIMIT: positiveInt(120),
  /** Token requests per authenticated client per window, whatever address they come from. */
  OAUTH_CLIENT_RATE_LIMIT: positiveInt(120),
  OAUTH_RATE_WINDOW_SECONDS: positiveInt(60),
  /**
   * Failed client authentications at the token endpoint per client address, and per presented
   * client id, per OAUTH_RATE_WINDOW_SECONDS: past either, 429 before any secret is hashed. Tighter
   * than the request limits, which successes use.
   */
  OAUTH_AUTH_FAILURE_ADDRESS_LIMIT: positiveInt(10),
  OAUTH_AUTH_FAILURE_CLIENT_LIMIT: positiveInt(10),
  /** Anonymous client registrations (POST /api/auth/register without an initial access token) per client address per window (RFC 7591 §3 allows it): each stores a client, an audit row and a hashed secret. One with an initial access token is bounded by the token. */
  REGISTRATION_ADDRESS_RATE_LIMIT: positiveInt(20),
  REGISTRATION_RATE_WINDOW_SECONDS: positiveInt(3_600),
  /** A token with a kid this instance does not know reloads the signing keys from PostgreSQL at most once per this many seconds. */
  KEY_RELOAD_COOLDOWN_SECONDS: positiveInt(10),
  /** Seed the demo users (doctor, nurse, reception, patient, admin) at start; off by default in production. */
  DEMO_USERS_ENABLED: z.string().optional(),
  /**
   * Token exchange (RFC 8693): issuers whose JWTs are accepted as subject tokens, as a JSON list
   * of {issuer, jwks_uri | jwks, audience?}. Our own tokens are always accepted.
   */
  TRUSTED_ISSUERS: jsonList<TrustedIssuer>(trustedIssuerSchema, '{issuer, jwks_uri | jwks}'),
  /**
   * RFC 7591 §2.3: issuers whose signed software statements register a client with a role, as a
   * JSON list of {issuer, jwks, roles}. Empty: software statements are refused.
   */
  SOFTWARE_STATEMENT_ISSUERS: jsonList<SoftwareStatementIssuer>(softwareStatementIssuerSchema, '{issuer, jwks, roles}'),
  /**
   * Key-set fetches (client jwks_uri, TRUSTED_ISSUERS jwks_uri): after an unknown kid or a failed
   * fetch, the same URL is not fetched again for this long.
   */
  JWKS_FETCH_COOLDOWN_SECONDS: positiveInt(30),
  /**
   * TEST ONLY, refused in production: comma-separated hosts whose key sets may be fetched from any
   * address (the loopback test server). Every other host must resolve to public addresses.
   */
  JWKS_FETCH_ALLOW_HOSTS: z.string().default(''),
  /** TEST ONLY, refused in production: a PEM file of extra CAs trusted for key-set fetches. */
  JWKS_FETCH_CA_FILE: z.string().min(1).optional(),
  /**
   * Sandbox (POST|GET /api/v1/sandbox; its principals see synthetic sbx- data only): on by default
   * outside production; in production it must be set explicitly (true or false), or the gateway
   * refuses to start.
   */
  SANDBOX_ENABLED: z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' }).optional(),
  SANDBOX_TOKEN_TTL_SECONDS: positiveInt(900),
  /** Sandbox credentials per client IP per window. */
  SANDBOX_RATE_LIMIT: positiveInt(10),
  SANDBOX_RATE_WINDOW_SECONDS: positiveInt(3_600),
  /**
   * When set, POST /api/auth/register requires `Authorization: Bearer <this>` (an RFC 7591 §3
   * initial access token). Unset: registration is open, as the spec shows.
   */
  REGISTRATION_ACCESS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** How often every instance reloads the signing keys: the longest a rotation or withdrawal takes to reach it. */
  SIGNING_KEY_REFRESH_SECONDS: positiveInt(30),
  /** Encrypts the token signing keys at rest. The development default is refused in production. */
  KEY_ENCRYPTION_SECRET: z.string().min(16, 'must be at least 16 characters').default(DEV_KEY_SECRET),
  /**
   * Audit integrity (docs/security.md): every this many seconds one gateway writes a signed
   * checkpoint of the audit chain's head to AUDIT_CHECKPOINT_DIR, outside PostgreSQL.
   */
  AUDIT_CHECKPOINT_SECONDS: positiveInt(60),
  /** Where checkpoints go; in production a write-once location. Development default: .data/audit-checkpoints/<database>. */
  AUDIT_CHECKPOINT_DIR: z.string().min(1).optional(),
  /** Signs the checkpoints (HMAC-SHA256); never stored in PostgreSQL. The development default is refused in production. */
  AUDIT_CHECKPOINT_KEY: z.string().min(32, 'must be at least 32 characters').default(DEV_AUDIT_CHECKPOINT_KEY),
  /** Retired checkpoint keys (comma-separated), accepted by audit-verify only: checkpoints signed before a key rotation still verify. */
  AUDIT_CHECKPOINT_PREVIOUS_KEYS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  /**
   * The observations topic POST /api/v1/vitals publishes to. The same as LIVE_TOPIC in production;
   * a test cluster names a private one (the live channel on a shared Redis follows the topic name).
   */
  VITALS_TOPIC: z.string().min(1).default(TOPICS.vitalsObservations),
  /** Live vitals: the observations topic whose fan-out channel (vitalis:live:<topic>) this gateway serves. */
  LIVE_TOPIC: z.string().min(1).default(TOPICS.vitalsObservations),
  /** Messages a live subscriber may have waiting before it is told it fell behind and closed. */
  LIVE_MAX_QUEUE: positiveInt(4_096),
  /** SSE comment / WebSocket ping interval on idle streams. */
  LIVE_HEARTBEAT_MS: positiveInt(15_000),
  /** Most patients one (ward) stream may watch. */
  LIVE_MAX_PATIENTS: positiveInt(64),
  /**
   * Most FHIR Subscriptions one client may hold (over all its users): each is followed by every
   * gateway and keeps up to 10,000 numbered events. Beyond it a create is 422; an identical one is
   * never stored twice (docs/fhir.md).
   */
  FHIR_SUBSCRIPTIONS_PER_CLIENT: positiveInt(50),
  /** How long a WebSocket without an Authorization header has to send its auth message. */
  LIVE_WS_AUTH_TIMEOUT_MS: positiveInt(5_000),
  /**
   * How far back (ingest time) a resumed live stream replays: an id older than this replays from the
   * window's start after a `replay-truncated` event naming the gap to read through REST. Five minutes
   * cover a reconnect, a proxy timeout or a gateway restart with room to spare, at a bounded cost
   * (a monitored patient is ~10 events/s with ECG: ~3,000 events, ~1.5 MB).
   */
  LIVE_REPLAY_WINDOW_SECONDS: positiveInt(300),
  /**
   * Diagnostics (issue 21): an unacknowledged critical result escalates (a second live event) this
   * long after it was raised. The due time is written into the event, so the projector's escalator
   * (which performs it) needs no setting and a restart of any process loses nothing.
   */
  DIAGNOSTICS_ESCALATION_SECONDS: positiveInt(900),
  /**
   * The site's alarm and freshness settings (libs/clinical/src/alarms.ts, `parseAlarmSettings`):
   * a JSON document of overrides, unset or empty for the defaults. The gateway reads the stale
   * thresholds (a value's age and stale mark on the cards) from it; the ingest and the projector
   * read the same variable. A bad document stops the start with the problem named.
   */
  VITALIS_ALARMS: alarmSettingsVariable,
  /** MCP server (/.well-known/mcp): sessions idle this long (no request, no open stream) are closed. */
  MCP_SESSION_IDLE_SECONDS: positiveInt(1_800),
  /** Most MCP sessions one gateway holds at once (initialize beyond it answers 503). */
  MCP_MAX_SESSIONS: positiveInt(1_000),
  /** MCP sessions created by an initialize without a token, per client address per window (429 beyond). */
  MCP_ANONYMOUS_SESSION_LIMIT: positiveInt(30),
  MCP_ANONYMOUS_SESSION_WINDOW_SECONDS: positiveInt(600),
  /** How long MCP stream events stay replayable (Last-Event-ID) in Redis. */
  MCP_EVENT_TTL_SECONDS: positiveInt(3_600),
  /** Browser origins allowed to call the MCP endpoint besides the gateway's own (comma-separated). */
  MCP_ALLOWED_ORIGINS: z.string().default(''),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>> & {
  baseUrl: string;
  demoUsers: boolean;
  sandbox: boolean;
  /** VITALIS_ALARMS applied to the defaults: the one alarm and freshness table (stale thresholds per vital code). */
  alarms: AlarmSettings;
};

export interface AuditCheckpointSettings {
  dir: string;
  /** Signs new checkpoints. */
  key: string;
  /** Verify only. */
  previousKeys: string[];
  seconds: number;
}

const DATA_DIR = fileURLToPath(new URL('../../../.data/', import.meta.url));

/**
 * Where and with which key the audit checkpoints are written and verified (main.ts, the admin
 * command). Production must name both: a development key is public, and a directory on the
 * gateway's own disk is no anchor.
 */
export function auditCheckpointSettings(
  config: Pick<
    GatewayConfig,
    | 'NODE_ENV'
    | 'DATABASE_URL'
    | 'AUDIT_CHECKPOINT_DIR'
    | 'AUDIT_CHECKPOINT_KEY'
    | 'AUDIT_CHECKPOINT_PREVIOUS_KEYS'
    | 'AUDIT_CHECKPOINT_SECONDS'
  >,
): AuditCheckpointSettings {
  if (config.NODE_ENV === 'production') {
    if (config.AUDIT_CHECKPOINT_KEY === DEV_AUDIT_CHECKPOINT_KEY) {
      throw new ConfigError('invalid configuration: AUDIT_CHECKPOINT_KEY: must be set in production (the development default is public)');
    }
    if (config.AUDIT_CHECKPOINT_DIR === undefined) {
      throw new ConfigError(
        'invalid configuration: AUDIT_CHECKPOINT_DIR: must be set in production (a write-once location outside PostgreSQL)',
      );
    }
  }
  // One directory per database in development: checkpoints of one chain are never checked against another.
  const database = decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1)) || 'postgres';
  const dir = config.AUDIT_CHECKPOINT_DIR ?? join(DATA_DIR, 'audit-checkpoints', database);
  return {
    dir,
    key: config.AUDIT_CHECKPOINT_KEY,
    previousKeys: config.AUDIT_CHECKPOINT_PREVIOUS_KEYS,
    seconds: config.AUDIT_CHECKPOINT_SECONDS,
  };
}

const yes = (value: string) => /^(true|1|yes)$/.test(value);

export function withBaseUrl(config: z.infer<z.ZodObject<typeof gatewayConfigShape>>): GatewayConfig {
  if (config.NODE_ENV === 'production' && config.KEY_ENCRYPTION_SECRET === DEV_KEY_SECRET) {
    throw new ConfigError('invalid configuration: KEY_ENCRYPTION_SECRET: must be set in production (the development default is public)');
  }
  if (config.NODE_ENV === 'production' && config.BACKEND_TOKEN_TTL_SECONDS > 300) {
    throw new ConfigError(
      'invalid configuration: BACKEND_TOKEN_TTL_SECONDS: at most 300 in production (SMART Backend Services: five minutes)',
    );
  }
  if (config.NODE_ENV === 'production' && (config.JWKS_FETCH_ALLOW_HOSTS.trim() || config.JWKS_FETCH_CA_FILE)) {
    throw new ConfigError('invalid configuration: JWKS_FETCH_ALLOW_HOSTS / JWKS_FETCH_CA_FILE: test-only settings, refused in production');
  }
  const allowHosts = parseAllowHosts(config.JWKS_FETCH_ALLOW_HOSTS);
  for (const trusted of config.TRUSTED_ISSUERS) {
    const problem = trusted.jwks_uri === undefined ? undefined : keySetUriProblem(trusted.jwks_uri, allowHosts);
    if (problem) throw new ConfigError(`invalid configuration: TRUSTED_ISSUERS: ${trusted.issuer}: jwks_uri ${problem}`);
  }
  if (config.DEMO_USERS_ENABLED !== undefined && !/^(true|false|1|0|yes|no)$/.test(config.DEMO_USERS_ENABLED)) {
    throw new ConfigError('invalid configuration: DEMO_USERS_ENABLED: must be true or false');
  }
  const production = config.NODE_ENV === 'production';
  if (production && config.SANDBOX_ENABLED === undefined) {
    throw new ConfigError(
      'invalid configuration: SANDBOX_ENABLED: must be set explicitly in production (true: the sandbox endpoint issues credentials that see synthetic sbx- data only; false: it answers 404)',
    );
  }
  const baseUrl = (config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
  // Demo users (publicly known passwords) only where a developer opted in: outside production by default, in production never unless named.
  const demoUsers = config.DEMO_USERS_ENABLED === undefined ? !production : yes(config.DEMO_USERS_ENABLED);
  const sandbox = config.SANDBOX_ENABLED === undefined ? !production : yes(config.SANDBOX_ENABLED);
  const alarms = parseAlarmSettings(config.VITALIS_ALARMS);
  return { ...config, baseUrl, demoUsers, sandbox, alarms };
}
