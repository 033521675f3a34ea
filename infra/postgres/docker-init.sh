#!/bin/sh
# docker-compose only (mounted into /docker-entrypoint-initdb.d, runs once on an empty volume):
# the same tuning file as infra/bin/stack, included from postgresql.conf, and the test database.
set -e
cp /etc/vitalis/postgresql.vitalis.conf "$PGDATA/postgresql.vitalis.conf"
printf "\n# Vitalis (infra/postgres/postgresql.vitalis.conf)\ninclude_if_exists = 'postgresql.vitalis.conf'\n" >>"$PGDATA/postgresql.conf"
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -c 'CREATE DATABASE vitalis_test'
