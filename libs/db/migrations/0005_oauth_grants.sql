-- OAuth 2, second part: private_key_jwt clients, users for the authorization-code flow, grants
-- (one user's consent to one client), single-use authorization codes, rotating refresh tokens.
-- Codes and refresh tokens are stored only as SHA-256 hashes (they are 256-bit random values,
-- so a fast hash is enough: there is nothing to brute-force); user passwords as scrypt hashes.

ALTER TABLE oauth_clients
  ADD COLUMN jwks jsonb,            -- private_key_jwt: the client's public keys, or
  ADD COLUMN jwks_uri text;         -- where to fetch them

CREATE TABLE oauth_users (
  user_id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,      -- scrypt$N$r$p$salt$hash
  display_name text NOT NULL,
  roles text[] NOT NULL,
  patient_id text,                  -- patient users: the one record they may see
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A grant is born when an authorization code is redeemed. Its refresh tokens form one family;
-- every access token issued under it is listed, so revoking the grant kills them all
-- (code reuse, refresh-token reuse, revocation of a refresh token).
CREATE TABLE oauth_grants (
  grant_id text PRIMARY KEY,
  client_id text NOT NULL,
  user_id text NOT NULL,
  scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,  -- absolute end of the refresh family; rotation never extends it
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX oauth_grants_client_idx ON oauth_grants (client_id);

CREATE TABLE oauth_authorization_codes (
  code_hash text PRIMARY KEY,
  grant_id text NOT NULL,           -- the grant its redemption creates (known up front, for reuse detection)
  client_id text NOT NULL,
  user_id text NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,     -- S256 only
  scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  redeemed_at timestamptz
);
CREATE INDEX oauth_authorization_codes_expiry_idx ON oauth_authorization_codes (expires_at);

CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz            -- set when exchanged; presenting it again revokes the family
);
CREATE INDEX oauth_refresh_tokens_grant_idx ON oauth_refresh_tokens (grant_id);

CREATE TABLE oauth_grant_access_tokens (
  jti text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants (grant_id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX oauth_grant_access_tokens_grant_idx ON oauth_grant_access_tokens (grant_id);
