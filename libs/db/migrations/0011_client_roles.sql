-- A scope is granted by a role, never by what a client asks for (security issue, finding 1).
-- A client without a role (open registration) holds only the public scopes; a role comes from an
-- initial access token an operator minted, a software statement of a trusted issuer, or an
-- operator's approval of a pending client.
ALTER TABLE oauth_clients
  ADD COLUMN role text,                                   -- operator-approved role; NULL: public scopes only
  ADD COLUMN registration text NOT NULL DEFAULT 'open'
    CHECK (registration IN ('open', 'initial_access_token', 'software_statement', 'sandbox')),
  ADD COLUMN requested_scope text NOT NULL DEFAULT '',    -- what it asked for (all of it), kept for the approval
  ADD COLUMN approval text NOT NULL DEFAULT 'none' CHECK (approval IN ('none', 'pending', 'approved', 'denied')),
  ADD COLUMN approved_by text,
  ADD COLUMN approved_at timestamptz;

-- Clients registered before roles existed kept whatever they asked for: cut them down to the
-- public scope and leave the rest pending, so an operator approves what a client really needs.
UPDATE oauth_clients
   SET requested_scope = scope,
       scope = CASE WHEN ' ' || scope || ' ' LIKE '% read:appointments %' THEN 'read:appointments' ELSE '' END,
       approval = 'pending'
 WHERE kind = 'registered' AND scope <> 'read:appointments' AND scope <> '';
UPDATE oauth_clients SET registration = 'sandbox' WHERE kind = 'sandbox';
CREATE INDEX oauth_clients_pending ON oauth_clients (issued_at) WHERE approval = 'pending';

-- RFC 7591 section 3 initial access tokens, minted by an operator (admin API or CLI) for one role.
CREATE TABLE oauth_initial_access_tokens (
  token_hash text PRIMARY KEY,                            -- SHA-256 of a 256-bit random token
  role text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  uses_left integer CHECK (uses_left IS NULL OR uses_left >= 0)  -- NULL: until it expires
);
