-- OpenID Connect (issue 19, item 2).
--
-- Signing keys: one active key per algorithm. ES256 signs access tokens (and the ID tokens of
-- clients that register ES256); RS256 signs ID tokens by default, as OpenID Connect requires
-- (Core 1.0 section 15.1). Both rotate and are withdrawn the same way; the alg column existed
-- from 0003 but only ES256 was ever written.
DROP INDEX oauth_signing_keys_one_active;
CREATE UNIQUE INDEX oauth_signing_keys_one_active_per_alg ON oauth_signing_keys (alg) WHERE retired_at IS NULL;
ALTER TABLE oauth_signing_keys ADD CONSTRAINT oauth_signing_keys_alg CHECK (alg IN ('ES256', 'RS256'));

-- The algorithm a client wants its ID tokens signed with (OpenID Connect Dynamic Client
-- Registration 1.0, id_token_signed_response_alg; default RS256).
ALTER TABLE oauth_clients ADD COLUMN id_token_signed_response_alg text NOT NULL DEFAULT 'RS256'
  CHECK (id_token_signed_response_alg IN ('RS256', 'ES256'));

-- What the ID token of a code says about the sign-in: the nonce of the authorization request and
-- when the user signed in (auth_time). The grant keeps auth_time for the ID tokens of its refreshes
-- (Core 1.0 section 12.2: auth_time is the original sign-in's, never the refresh's).
ALTER TABLE oauth_authorization_codes
  ADD COLUMN nonce text,
  ADD COLUMN auth_time timestamptz;
ALTER TABLE oauth_grants ADD COLUMN auth_time timestamptz;
