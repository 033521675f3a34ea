# Redis (Debian's redis-server). Sourced by infra/bin/stack.
# Installing the package may start a system Redis on 6379: ours has its own port, data folder,
# pid file and log, and never touches that one.
REDIS_DIR="$DATA/redis"
REDIS_PID="$RUN/redis.pid"

install_redis() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return
  say "installing redis-server (apt)"
  apt_install redis-server redis-tools
}

redis_healthy() { [ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }

redis_pid() {
  local pid
  pid=$(cat "$REDIS_PID" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "redis-server.*:$REDIS_PORT" || return 1
  printf '%s' "$pid"
}
redis_alive() { redis_pid >/dev/null; }

up_redis() {
  install_redis
  redis_healthy && return 0
  local t0; t0=$(now)
  if redis_alive; then wait_for redis 20 redis_healthy redis_alive; return 0; fi
  port_in_use "$REDIS_PORT" && die "redis: port $REDIS_PORT is taken by another process (set VITALIS_REDIS_PORT)"
  mkdir -p "$REDIS_DIR"
  rm -f "$REDIS_PID"
  printf '=== %s stack: starting redis\n' "$(date -u +%FT%TZ)" >>"$LOGS/redis.log"
  # Append-only file, fsync every second: revocations and rate-limit windows survive a restart
  # (PostgreSQL stays the record for anything that must never be lost). No RDB snapshots.
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --protected-mode yes \
    --dir "$REDIS_DIR" --daemonize yes --pidfile "$REDIS_PID" --logfile "$LOGS/redis.log" \
    --appendonly yes --appendfsync everysec --save '' >/dev/null 9>&- ||
    die "redis did not start, see $LOGS/redis.log"
  wait_for redis 20 redis_healthy
  say "redis: started in $(since "$t0")s"
}

down_redis() {
  if redis_healthy; then
    # SHUTDOWN flushes the append-only file; the reply never comes (the server exits).
    timeout 30 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown >/dev/null 2>&1 || true
  fi
  local pid i
  if pid=$(redis_pid); then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  fi
  rm -f "$REDIS_PID"
}

redis_status() {
  if redis_healthy; then
    printf '%-9s running  pid %-8s port %-6s data %s\n' redis "$(redis_pid || echo '?')" "$REDIS_PORT" "$REDIS_DIR"
    return 0
  fi
  printf '%-9s stopped  %-12s port %-6s data %s\n' redis '' "$REDIS_PORT" "$REDIS_DIR"
  return 1
}
