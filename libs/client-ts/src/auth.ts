/**
 * Token sources: where the client gets its Bearer token. Each caches its token until shortly
 * before `expires_in` and fetches a new one on demand; `invalidate()` drops it (the client calls it
 * after a 401 and retries once). Flows: client credentials, sandbox, authorization code with
 * rotating refresh tokens; plus the PKCE helpers a browser app needs to start the code flow.
 */
import { errorFromResponse, OAuthError } from './errors';

export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  /** OpenID Connect ID token (authorization code flow with the openid scope); validate it with an OpenID client library. */
  id_token?: string;
}

export interface TokenSource {
  token(): Promise<string>;
  invalidate(): void;
}

/** Renew this long before the token really expires (clock skew, in-flight requests). */
const EXPIRY_MARGIN_MS = 30_000;

type FetchFn = typeof fetch;

export async function tokenRequest(baseUrl: string, form: Record<string, string>, fetchFn: FetchFn = fetch): Promise<TokenSet> {
  const res = await fetchFn(`${baseUrl}/api/auth/oauth2/token`, { method: 'POST', body: new URLSearchParams(form) });
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as TokenSet;
}

/** Caches one token per source; concurrent callers share one in-flight request. */
abstract class CachingSource implements TokenSource {
  private cached?: { token: string; expiresAt: number };
  private pending?: Promise<string>;
  protected abstract fetchToken(): Promise<TokenSet>;

  token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.expiresAt) return Promise.resolve(this.cached.token);
    this.pending ??= this.fetchToken()
      .then((set) => {
        this.cached = { token: set.access_token, expiresAt: Date.now() + Math.max(0, set.expires_in * 1000 - EXPIRY_MARGIN_MS) };
        return set.access_token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  invalidate(): void {
    this.cached = undefined;
  }
}

/** Backend agents: client_credentials with client_secret_post. */
export class ClientCredentials extends CachingSource {
  constructor(
    private readonly baseUrl: string,
    private readonly opts: { clientId: string; clientSecret: string; scope?: string | string[]; fetch?: FetchFn },
  ) {
    super();
  }
  protected fetchToken(): Promise<TokenSet> {
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      client_id: this.opts.clientId,
      client_secret: this.opts.clientSecret,
    };
    if (this.opts.scope) form.scope = Array.isArray(this.opts.scope) ? this.opts.scope.join(' ') : this.opts.scope;
    return tokenRequest(this.baseUrl, form, this.opts.fetch);
  }
}

export interface SandboxCredentials extends TokenSet {
  client_id: string;
  client_secret: string;
  client_secret_expires_at: number;
  token_endpoint: string;
}

/** Evaluation: POST /api/v1/sandbox (no registration, rate-limited, read-only demo scopes). */
export class Sandbox extends CachingSource {
  credentials?: SandboxCredentials;
  constructor(
    private readonly baseUrl: string,
    private readonly fetchFn: FetchFn = fetch,
  ) {
    super();
  }
  protected async fetchToken(): Promise<TokenSet> {
    const res = await this.fetchFn(`${this.baseUrl}/api/v1/sandbox`, { method: 'POST' });
    if (!res.ok) throw await errorFromResponse(res);
    this.credentials = (await res.json()) as SandboxCredentials;
    return this.credentials;
  }
}

/**
 * A user's tokens from the authorization code flow. Refresh tokens rotate: each refresh returns a
 * new one and the old one is dead (presenting it again revokes the whole family), so the new set
 * is kept here and handed to `onTokens` for the app to persist.
 */
export class RefreshingTokens extends CachingSource {
  private current: TokenSet;
  /** The initial set is served once before any refresh. */
  private primed?: TokenSet;
  constructor(
    private readonly baseUrl: string,
    initial: TokenSet,
    private readonly opts: { clientId: string; clientSecret?: string; onTokens?: (set: TokenSet) => void; fetch?: FetchFn },
  ) {
    super();
    this.current = initial;
    this.primed = initial;
  }

  get refreshToken(): string | undefined {
    return this.current.refresh_token;
  }

  protected async fetchToken(): Promise<TokenSet> {
    if (this.primed) {
      const first = this.primed;
      this.primed = undefined;
      return first;
    }
    if (!this.current.refresh_token) throw new Error('the access token expired and there is no refresh token');
    const form: Record<string, string> = {
      grant_type: 'refresh_token',
      refresh_token: this.current.refresh_token,
      client_id: this.opts.clientId,
    };
    if (this.opts.clientSecret) form.client_secret = this.opts.clientSecret;
    const next = await tokenRequest(this.baseUrl, form, this.opts.fetch);
    this.current = { ...next, refresh_token: next.refresh_token ?? this.current.refresh_token };
    this.opts.onTokens?.(this.current);
    return this.current;
  }
}

/** A fixed token (e.g. handed over by another component). */
export class StaticToken implements TokenSource {
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
  invalidate(): void {}
}

// ---- PKCE (RFC 7636, S256 only) for browser apps: WebCrypto, so it runs in browsers and Node 20.

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** 32 random bytes → a 43-character verifier and its S256 challenge. */
export async function createPkce(): Promise<PkcePair> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest), method: 'S256' };
}

export function randomState(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scope: string | string[];
  state: string;
  challenge: string;
}

/** The URL to send the user's browser to (login and consent pages). */
export function authorizationUrl(baseUrl: string, req: AuthorizationRequest): URL {
  const url = new URL(`${baseUrl}/api/auth/oauth2/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', req.clientId);
  url.searchParams.set('redirect_uri', req.redirectUri);
  url.searchParams.set('scope', Array.isArray(req.scope) ? req.scope.join(' ') : req.scope);
  url.searchParams.set('state', req.state);
  url.searchParams.set('code_challenge', req.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url;
}

/**
 * Handles the redirect back: checks `state` (CSRF), surfaces an `error` redirect, and redeems the
 * code with the PKCE verifier.
 */
export async function exchangeCode(
  baseUrl: string,
  callback: URL | string,
  opts: { clientId: string; clientSecret?: string; redirectUri: string; verifier: string; expectedState: string; fetch?: FetchFn },
): Promise<TokenSet> {
  const params = new URL(String(callback)).searchParams;
  if (params.get('state') !== opts.expectedState) throw new Error('authorization response state does not match (possible CSRF)');
  const error = params.get('error');
  if (error) {
    throw new OAuthError(400, error, params.get('error_description') ?? undefined);
  }
  const code = params.get('code');
  if (!code) throw new Error('authorization response carries no code');
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: opts.redirectUri,
    client_id: opts.clientId,
    code_verifier: opts.verifier,
  };
  if (opts.clientSecret) form.client_secret = opts.clientSecret;
  return tokenRequest(baseUrl, form, opts.fetch);
}

/** RFC 7009: 200 for any token; the token is refused everywhere afterwards. */
export async function revokeToken(
  baseUrl: string,
  token: string,
  hint: 'access_token' | 'refresh_token' = 'access_token',
  fetchFn: FetchFn = fetch,
): Promise<void> {
  const res = await fetchFn(`${baseUrl}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token, token_type_hint: hint }) });
  if (!res.ok) throw await errorFromResponse(res);
}

export interface RegistrationRequest {
  client_name: string;
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  scope: string;
  redirect_uris?: string[];
}

/** RFC 7591 dynamic registration; the secret is shown only in this answer. */
export async function registerClient(
  baseUrl: string,
  req: RegistrationRequest,
  fetchFn: FetchFn = fetch,
): Promise<{ client_id: string; client_secret?: string; scope: string } & Record<string, unknown>> {
  const res = await fetchFn(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req),
  });
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as { client_id: string; client_secret?: string; scope: string };
}
