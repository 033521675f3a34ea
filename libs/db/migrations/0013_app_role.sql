-- Least privilege (security issue 18, finding 11): the apps connect as `vitalis_app`, which may read
-- and write the working tables and nothing more; the role that runs these migrations (the owner:
-- `postgres` on a developer's machine, a dedicated owner role in production) owns every object.
-- Not being the owner, the app role cannot ALTER, DROP, TRUNCATE or DISABLE TRIGGER anything, so a
-- compromised app cannot erase the audit trail: on audit_events (and the event store) it may only
-- INSERT and SELECT.
--
-- The role is cluster-wide and created here when missing (the migrator must then have CREATEROLE;
-- a superuser does), with LOGIN but no password: under trust auth (development, tests) it connects
-- as it is; under password auth it cannot log in until an operator sets one
-- (ALTER ROLE vitalis_app PASSWORD ...). An operator may also create it beforehand, any way they like.
DO $role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'vitalis_app') THEN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole)) THEN
      RAISE EXCEPTION 'role vitalis_app does not exist and % may not create roles: run CREATE ROLE vitalis_app LOGIN PASSWORD ''...'' as an administrator, then migrate again', current_user;
    END IF;
    BEGIN
      CREATE ROLE vitalis_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- another database of this cluster migrated at the same moment and created it
    END;
  END IF;
END
$role$;

-- Nobody but the owner creates objects in the schema (PostgreSQL 15's default; older servers let
-- every role create tables in public).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO vitalis_app;

-- The working tables: read and write rows. Tables and sequences the owner creates later (the next
-- migrations, daily partitions, a projection rebuild's fresh table) get the same grants by default.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO vitalis_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO vitalis_app;
ALTER DEFAULT PRIVILEGES GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO vitalis_app;
ALTER DEFAULT PRIVILEGES GRANT USAGE, SELECT ON SEQUENCES TO vitalis_app;

-- Append-only tables: INSERT and SELECT only (their triggers refuse UPDATE and DELETE for the
-- owner too; TRUNCATE bypasses row triggers, so it must not be granted at all).
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_events, events FROM vitalis_app;
-- The apps check at start that the schema is current; only the migration step changes it.
REVOKE ALL ON schema_migrations FROM vitalis_app;
GRANT SELECT ON schema_migrations TO vitalis_app;

-- Runtime partition work (the ingest and the projector create daily partitions ahead; the projector
-- drops expired ones) is DDL on the owner's table: these functions run with the owner's rights
-- (SECURITY DEFINER), with a fixed search_path so no caller's schema can stand in for a table, and
-- only the app role may call them.
ALTER FUNCTION vitalis_ensure_vitals_partitions(integer, integer) SECURITY DEFINER SET search_path = public, pg_temp;
ALTER FUNCTION vitalis_drop_old_vitals_partitions(integer) SECURITY DEFINER SET search_path = public, pg_temp;
REVOKE EXECUTE ON FUNCTION vitalis_ensure_vitals_partitions(integer, integer), vitalis_drop_old_vitals_partitions(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION vitalis_ensure_vitals_partitions(integer, integer), vitalis_drop_old_vitals_partitions(integer) TO vitalis_app;
