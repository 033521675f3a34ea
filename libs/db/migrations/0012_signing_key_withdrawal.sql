-- A withdrawn signing key (compromised, or taken out of service early) verifies nothing any more:
-- every gateway drops it at its next key refresh (SIGNING_KEY_REFRESH_SECONDS), so the tokens it
-- signed are refused everywhere without a restart. A retired key still verifies until its tokens
-- expire; a withdrawn one does not.
ALTER TABLE oauth_signing_keys ADD COLUMN withdrawn_at timestamptz;
ALTER TABLE oauth_signing_keys ADD CONSTRAINT oauth_signing_keys_withdrawn_retired CHECK (withdrawn_at IS NULL OR retired_at IS NOT NULL);
