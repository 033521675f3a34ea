# PostgreSQL 15 (Debian's postgresql-15). Sourced by infra/bin/stack.
# The server refuses to run as root, so it runs as `postgres`, from a data folder that user owns
# and can reach: <root>/.data/pg, or /var/tmp/vitalis-<hash>/pg when `postgres` cannot traverse
# the checkout (e.g. a clone under /root).
PG_BIN=/usr/lib/postgresql/15/bin
PG_SOCKET_DIR="/tmp/vitalis-pg-$HASH"   # short: a socket path over ~107 bytes stops the server
PG_DATABASES="vitalis vitalis_test"

# From / : the caller's folder may be one `postgres` cannot enter.
as_pg() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
can_pg() { [ "$(id -u)" != 0 ] || (cd / && runuser -u postgres -- "$@" 2>/dev/null); }

install_pg() {
  [ -x "$PG_BIN/postgres" ] && return
  say "installing postgresql-15 (apt)"
  apt_install postgresql-15
}

# Sets PG_DIR and PG_LOG. With CREATE=1, makes the folders; the choice is remembered in
# .data/run/pg.dir so `down` and `status` find the same folder.
pg_locate() {
  local create=${1:-0}
  PG_LOG="$LOGS/postgres.log"
  if [ -s "$RUN/pg.dir" ]; then
    PG_DIR=$(cat "$RUN/pg.dir")
  elif [ "$create" = 0 ]; then
    PG_DIR="$DATA/pg"; return 0
  else
    PG_DIR="$DATA/pg"
    if [ "$(id -u)" = 0 ]; then
      if can_pg test -x "$DATA"; then
        mkdir -p "$PG_DIR" && chown postgres:postgres "$PG_DIR"
        can_pg test -w "$PG_DIR" || PG_DIR=""
      else
        PG_DIR=""
      fi
      if [ -z "$PG_DIR" ]; then
        PG_DIR="/var/tmp/vitalis-$HASH/pg"
        say "postgres: the postgres user cannot reach $DATA; data folder is $PG_DIR"
      fi
    fi
    printf '%s\n' "$PG_DIR" >"$RUN/pg.dir"
  fi
  [ "$create" = 1 ] || return 0
  mkdir -p "$PG_DIR" "$PG_SOCKET_DIR"
  if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$PG_DIR" "$PG_SOCKET_DIR"
    [ "$PG_DIR" = "$DATA/pg" ] || chown postgres:postgres "$(dirname "$PG_DIR")"
    touch "$PG_LOG" && chown postgres:postgres "$PG_LOG"
    if ! can_pg test -w "$PG_LOG"; then
      # The server writes its own log: keep it beside the data and link it into .data/logs.
      PG_LOG="$(dirname "$PG_DIR")/postgres.log"
      touch "$PG_LOG" && chown postgres:postgres "$PG_LOG"
      rm -f "$LOGS/postgres.log"; ln -s "$PG_LOG" "$LOGS/postgres.log"
    fi
  fi
}

pg_healthy() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -t 2 2>/dev/null; }
pg_psql() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -X -q -v ON_ERROR_STOP=1 "$@"; }

# The postmaster's pid when it is alive and really a postgres server (not a recycled pid).
pg_pid() {
  local pid
  pid=$(head -1 "$PG_DIR/postmaster.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'postgres' || return 1
  printf '%s' "$pid"
}
pg_alive() { pg_pid >/dev/null; }

# Copy the tuning file in and include it from postgresql.conf (idempotent).
pg_conf() {
  local want="$INFRA/postgres/postgresql.vitalis.conf" have="$PG_DIR/postgresql.vitalis.conf"
  cmp -s "$want" "$have" && return 1
  cp "$want" "$have"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$have"
  grep -q "^include_if_exists = 'postgresql.vitalis.conf'" "$PG_DIR/postgresql.conf" ||
    printf "\n# Vitalis (infra/postgres/postgresql.vitalis.conf)\ninclude_if_exists = 'postgresql.vitalis.conf'\n" >>"$PG_DIR/postgresql.conf"
  return 0
}

pg_databases() {
  local db
  for db in $PG_DATABASES; do
    [ "$(pg_psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" postgres)" = 1 ] ||
      pg_psql -c "CREATE DATABASE $db" postgres
  done
}

up_pg() {
  install_pg
  pg_locate 1
  if pg_healthy; then
    if pg_conf; then   # the tuning file changed since this server started
      as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" reload >/dev/null
      [ "$(pg_psql -tAc 'SELECT count(*) FROM pg_settings WHERE pending_restart' postgres)" = 0 ] ||
        say "postgres: postgresql.vitalis.conf changed; some settings need 'infra/bin/stack down pg && infra/bin/stack up pg'"
    fi
    pg_databases
    return 0
  fi
  local t0; t0=$(now)
  if pg_alive; then # our postmaster exists but does not answer yet: starting or recovering
    wait_for postgres 60 pg_healthy pg_alive
    pg_databases
    return 0
  fi
  port_in_use "$PG_PORT" && die "postgres: port $PG_PORT is taken by another process (set VITALIS_PG_PORT)"
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    say "postgres: initialising $PG_DIR"
    as_pg "$PG_BIN/initdb" -D "$PG_DIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
      >"$LOGS/pg-initdb.log" 2>&1 || die "postgres: initdb failed, see $LOGS/pg-initdb.log"
  fi
  pg_conf || true
  # A killed postmaster leaves postmaster.pid behind; the server checks it (and its shared
  # memory) itself. Only a pid recycled by some other program needs removing by hand.
  if [ -f "$PG_DIR/postmaster.pid" ] && ! pg_alive; then
    local old; old=$(head -1 "$PG_DIR/postmaster.pid")
    if [ -n "$old" ] && kill -0 "$old" 2>/dev/null; then rm -f "$PG_DIR/postmaster.pid"; fi
  fi
  printf '=== %s stack: starting postgres\n' "$(date -u +%FT%TZ)" >>"$PG_LOG"
  local try
  for try in 1 2 3; do  # orphaned backends of a killed postmaster may need a moment to exit
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$PG_LOG" -w -t 60 \
      -o "-p $PG_PORT -k $PG_SOCKET_DIR -c listen_addresses=127.0.0.1" start >"$LOGS/pg-ctl.log" 2>&1 9>&- && break
    [ "$try" = 3 ] && die "postgres did not start, see $LOGS/postgres.log and $LOGS/pg-ctl.log"
    sleep 2
  done
  pg_databases
  say "postgres: started in $(since "$t0")s (data $PG_DIR)"
}

down_pg() {
  pg_locate 0
  [ -f "$PG_DIR/postmaster.pid" ] || return 0
  pg_alive || return 0
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" -m fast -w -t 60 stop >/dev/null ||
    die "postgres did not stop, see $LOGS/postgres.log"
}

pg_status() {
  pg_locate 0
  if pg_healthy; then
    printf '%-9s running  pid %-8s port %-6s data %s\n' postgres "$(pg_pid || echo '?')" "$PG_PORT" "$PG_DIR"
    return 0
  fi
  printf '%-9s stopped  %-12s port %-6s data %s\n' postgres '' "$PG_PORT" "$PG_DIR"
  return 1
}
