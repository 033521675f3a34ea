-- Audit integrity (security finding 11): the audit trail is a hash chain. Every row carries the
-- hash of the row before it (prev_hash) and its own hash, SHA-256 over a canonical encoding of
-- prev_hash and every column (vitalis_audit_hash; libs/audit/src/chain.ts recomputes the same
-- encoding independently). Changing a row breaks its hash; deleting one breaks the next row's
-- prev_hash; a rewritten table no longer matches the signed checkpoints kept outside PostgreSQL
-- (libs/audit/src/checkpoint.ts). `npm run admin -- audit-verify` checks all three.
--
-- One chain, whatever the concurrency: a BEFORE INSERT trigger locks the one-row chain head, then
-- gives the row its id (from audit_events_id_seq, taken under the lock, so id order is chain order), its time (clock_timestamp(), so the trail cannot be backdated) and its hashes,
-- and moves the head. The lock is held until the inserting transaction ends: write the audit row
-- last in a transaction. A rolled-back insert rolls the head back with it.
--
-- Least privilege: the trigger function is SECURITY DEFINER (runs as the migration owner, with a
-- fixed search_path), so an application role with only INSERT and SELECT on audit_events appends
-- to the chain without any privilege on audit_chain_head.

-- The canonical encoding: every field as <octet length>:<text>, NULL as '~', concatenated in a
-- fixed order behind a version tag. Unambiguous (no separator can be forged inside a value).
CREATE FUNCTION vitalis_audit_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$$;

CREATE FUNCTION vitalis_audit_hash(
  prev_hash text, id bigint, occurred_at timestamptz, action text, outcome text, actor_client_id text, actor_subject text,
  scope text, resource_type text, resource_id text, request_id text, ip inet, detail jsonb
) RETURNS text LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
  SELECT encode(sha256(convert_to(
    'vitalis-audit-v1'
    || public.vitalis_audit_field(prev_hash)
    || public.vitalis_audit_field(id::text)
    || public.vitalis_audit_field(to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
    || public.vitalis_audit_field(action)
    || public.vitalis_audit_field(outcome)
    || public.vitalis_audit_field(actor_client_id)
    || public.vitalis_audit_field(actor_subject)
    || public.vitalis_audit_field(scope)
    || public.vitalis_audit_field(resource_type)
    || public.vitalis_audit_field(resource_id)
    || public.vitalis_audit_field(request_id)
    || public.vitalis_audit_field(ip::text)
    || public.vitalis_audit_field(detail::text),
    'UTF8')), 'hex')
$$;

-- The chain's head: the last row's id and hash. Exactly one row; no application privilege on it.
CREATE TABLE audit_chain_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  last_id bigint NOT NULL,
  last_hash text NOT NULL
);
REVOKE ALL ON audit_chain_head FROM PUBLIC;
-- Also whatever default privileges granted it (e.g. to an application role): only the owner (and
-- the SECURITY DEFINER functions below) may touch the head.
DO $$
DECLARE
  grantee regrole;
BEGIN
  FOR grantee IN
    SELECT DISTINCT a.grantee::regrole FROM pg_class c, aclexplode(c.relacl) a
     WHERE c.oid = 'audit_chain_head'::regclass AND a.grantee <> 0 AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('REVOKE ALL ON audit_chain_head FROM %s', grantee);
  END LOOP;
END $$;

-- The head for any role (the checkpoint writer and the verifier run as the application role).
CREATE FUNCTION vitalis_audit_chain_head(OUT last_id bigint, OUT last_hash text) LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
  SELECT last_id, last_hash FROM public.audit_chain_head
$$;

-- Existing rows: chained in id order, once, with the append-only trigger off for the backfill
-- (the migration runs as the owner, in one transaction that holds the table exclusively).
LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE;
ALTER TABLE audit_events ADD COLUMN prev_hash text, ADD COLUMN hash text;
ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only;
DO $$
DECLARE
  r record;
  prev text := repeat('0', 64); -- the genesis: the first row's prev_hash
  last bigint := 0;
  h text;
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY id LOOP
    h := vitalis_audit_hash(prev, r.id, r.occurred_at, r.action, r.outcome, r.actor_client_id, r.actor_subject,
                            r.scope, r.resource_type, r.resource_id, r.request_id, r.ip, r.detail);
    UPDATE audit_events SET prev_hash = prev, hash = h WHERE id = r.id;
    prev := h;
    last := r.id;
  END LOOP;
  INSERT INTO audit_chain_head (last_id, last_hash) VALUES (last, prev);
END $$;
ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only;
ALTER TABLE audit_events ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL;

-- The id comes from the trigger, under the lock (id order = chain order); an identity default would
-- spend a second, unused value on every row. Continue the old sequence's numbering.
ALTER TABLE audit_events ALTER COLUMN id DROP IDENTITY;
CREATE SEQUENCE audit_events_id_seq OWNED BY audit_events.id;
SELECT setval('audit_events_id_seq', (SELECT coalesce(max(id), 0) + 1 FROM audit_events), false);

CREATE FUNCTION vitalis_audit_chain_append() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
DECLARE
  head public.audit_chain_head%ROWTYPE;
BEGIN
  -- The row lock serialises appends: concurrent inserts form one chain, never a fork.
  SELECT * INTO head FROM public.audit_chain_head FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the audit chain has no head (migration 0014)' USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  NEW.id := nextval('public.audit_events_id_seq'::regclass); -- id order is chain order
  NEW.occurred_at := clock_timestamp();
  NEW.prev_hash := head.last_hash;
  NEW.hash := public.vitalis_audit_hash(NEW.prev_hash, NEW.id, NEW.occurred_at, NEW.action, NEW.outcome, NEW.actor_client_id,
    NEW.actor_subject, NEW.scope, NEW.resource_type, NEW.resource_id, NEW.request_id, NEW.ip, NEW.detail);
  UPDATE public.audit_chain_head SET last_id = NEW.id, last_hash = NEW.hash;
  RETURN NEW;
END $$;
REVOKE ALL ON FUNCTION vitalis_audit_chain_append() FROM PUBLIC;
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION vitalis_audit_chain_append();

-- TRUNCATE fires no row trigger: refuse it as a statement (an owner can still disable this; the
-- checkpoints are what detect that).
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION vitalis_refuse_change();
