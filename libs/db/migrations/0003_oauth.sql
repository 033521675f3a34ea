-- OAuth 2 authorization server state. Secrets are stored only as scrypt hashes; signing keys'
-- private halves only encrypted (AES-256-GCM with KEY_ENCRYPTION_SECRET).
CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  secret_hash text,                          -- scrypt$N$r$p$salt$hash; NULL for public clients
  client_name text NOT NULL,
  grant_types text[] NOT NULL,
  response_types text[] NOT NULL,
  token_endpoint_auth_method text NOT NULL,
  scope text NOT NULL,                       -- the most this client may ever be granted
  redirect_uris text[] NOT NULL DEFAULT '{}',
  kind text NOT NULL DEFAULT 'registered' CHECK (kind IN ('registered', 'sandbox')),
  issued_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz                     -- sandbox clients expire
);

CREATE TABLE oauth_signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_jwk_encrypted text NOT NULL,       -- base64url(iv || tag || ciphertext)
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz                     -- no longer signs; still verifies until tokens expire
);
-- At most one active signing key.
CREATE UNIQUE INDEX oauth_signing_keys_one_active ON oauth_signing_keys ((true)) WHERE retired_at IS NULL;

-- The durable record of revoked access tokens (Redis holds the fast shared copy, rebuilt from
-- here at gateway start, so a Redis restart revives nothing).
CREATE TABLE oauth_revocations (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_revocations_expiry ON oauth_revocations (expires_at);
