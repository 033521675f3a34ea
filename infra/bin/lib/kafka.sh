# Apache Kafka, KRaft single node (broker + controller), jars from Maven Central via
# infra/kafka/pom.xml. Sourced by infra/bin/stack.
KAFKA_HOME="$INFRA/kafka"
KAFKA_LIBS="$KAFKA_HOME/libs"
KAFKA_DIR="$DATA/kafka"
KAFKA_CONF="$RUN/kafka-server.properties"
KAFKA_PID="$RUN/kafka.pid"
KAFKA_HEAP=${VITALIS_KAFKA_HEAP:--Xms256m -Xmx512m}

install_kafka() {
  command -v java >/dev/null || { say "installing openjdk-17-jre-headless (apt)"; apt_install openjdk-17-jre-headless; }
  local stamp="$KAFKA_LIBS/.pom.sha256" want
  want=$(sha256sum "$KAFKA_HOME/pom.xml" | cut -d' ' -f1)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
  command -v mvn >/dev/null || { say "installing maven (apt)"; apt_install maven; }
  local t0; t0=$(now)
  say "kafka: fetching jars from Maven Central into infra/kafka/libs (once, or when pom.xml changes)"
  rm -rf "$KAFKA_LIBS"
  local repo=()
  [ -n "${VITALIS_M2_REPO:-}" ] && repo=("-Dmaven.repo.local=$VITALIS_M2_REPO")
  mvn -q -B "${repo[@]}" -f "$KAFKA_HOME/pom.xml" package >"$LOGS/kafka-fetch.log" 2>&1 ||
    { rm -rf "$KAFKA_LIBS"; die "kafka: jar fetch failed, see $LOGS/kafka-fetch.log"; }
  ls "$KAFKA_LIBS"/kafka_2.13-*.jar >/dev/null 2>&1 || die "kafka: no broker jar in $KAFKA_LIBS, see $LOGS/kafka-fetch.log"
  printf '%s\n' "$want" >"$stamp"
  say "kafka: $(ls "$KAFKA_LIBS"/*.jar | wc -l) jars fetched in $(since "$t0")s"
}

# Readiness needs kafkajs from the repo's node_modules (npm ci).
need_kafkajs() {
  (cd "$INFRA/bin" && node -e "require.resolve('kafkajs')" 2>/dev/null) ||
    die "kafka: kafkajs is not installed (readiness check infra/bin/kafka-ready.mjs needs it); run 'npm ci' in $ROOT first"
}

# The live broker's pid: the pid file names a process that is not a zombie and really is our
# kafka.Kafka (not a recycled pid). Without a pid file, a broker started with our config file
# is found and adopted.
kafka_pid() {
  local pid p
  pid=$(cat "$KAFKA_PID" 2>/dev/null || true)
  if [ -z "$pid" ] || ! kafka_is_ours "$pid"; then
    pid=""
    for p in /proc/[0-9]*; do
      p=${p#/proc/}
      if kafka_is_ours "$p"; then pid=$p; printf '%s\n' "$pid" >"$KAFKA_PID"; break; fi
    done
    [ -n "$pid" ] || return 1
  fi
  printf '%s' "$pid"
}
kafka_is_ours() {
  [ -r "/proc/$1/cmdline" ] || return 1
  [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ] || return 1
  tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "kafka.Kafka $KAFKA_CONF"
}
kafka_alive() { kafka_pid >/dev/null; }
kafka_answers() { timeout 10 node "$INFRA/bin/kafka-ready.mjs" "127.0.0.1:$KAFKA_PORT" >/dev/null 2>&1; }
kafka_healthy() { kafka_alive && kafka_answers; }

kafka_render() {
  sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" -e "s|@CONTROLLER_PORT@|$CONTROLLER_PORT|g" -e "s|@LOG_DIR@|$KAFKA_DIR|g" \
    "$KAFKA_HOME/server.properties.template"
}

kafka_java() {
  # shellcheck disable=SC2206
  KAFKA_JAVA=(java $KAFKA_HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
    -Djava.awt.headless=true -Dlog4j2.configurationFile="$KAFKA_HOME/log4j2.properties"
    -cp "$KAFKA_LIBS/*")
}

up_kafka() {
  install_kafka
  need_kafkajs
  # What the broker runs with: the jar stamp and the rendered config. A running broker started
  # with something else (pom.xml or template changed) is restarted to pick it up.
  local want
  want=$(kafka_render | cat - "$KAFKA_LIBS/.pom.sha256" "$KAFKA_HOME/log4j2.properties" | sha256sum | cut -d' ' -f1)
  if kafka_healthy; then
    [ "$(cat "$RUN/kafka.started-with" 2>/dev/null)" = "$want" ] && return 0
    say "kafka: jars or configuration changed since it started; restarting it"
    down_kafka
  fi
  local t0 pid; t0=$(now)
  if pid=$(kafka_pid); then
    # Running but not answering: maybe still starting; replace it if it stays wedged.
    local i
    for ((i = 0; i < 120; i++)); do kafka_healthy && return 0; kafka_alive || break; sleep 0.5; done
    say "kafka: pid $pid is not answering; restarting it"
    down_kafka
  fi
  port_in_use "$KAFKA_PORT" && die "kafka: port $KAFKA_PORT is taken by another process (set VITALIS_KAFKA_PORT)"
  port_in_use "$CONTROLLER_PORT" && die "kafka: port $CONTROLLER_PORT is taken by another process (set VITALIS_KAFKA_CONTROLLER_PORT)"
  mkdir -p "$KAFKA_DIR"
  kafka_render >"$KAFKA_CONF"
  kafka_java
  if [ ! -f "$KAFKA_DIR/meta.properties" ]; then   # format once: a new cluster id on old data fails
    say "kafka: formatting storage in $KAFKA_DIR (once)"
    local id
    id=$("${KAFKA_JAVA[@]}" kafka.tools.StorageTool random-uuid 2>>"$LOGS/kafka-format.log") ||
      die "kafka: random-uuid failed, see $LOGS/kafka-format.log"
    "${KAFKA_JAVA[@]}" kafka.tools.StorageTool format -t "$id" -c "$KAFKA_CONF" >>"$LOGS/kafka-format.log" 2>&1 ||
      die "kafka: storage format failed, see $LOGS/kafka-format.log"
  fi
  printf '=== %s stack: starting kafka\n' "$(date -u +%FT%TZ)" >>"$LOGS/kafka.log"
  setsid nohup "${KAFKA_JAVA[@]}" kafka.Kafka "$KAFKA_CONF" >>"$LOGS/kafka.log" 2>&1 </dev/null 9>&- &
  printf '%s\n' "$!" >"$KAFKA_PID"
  wait_for kafka 90 kafka_answers kafka_alive
  printf '%s\n' "$want" >"$RUN/kafka.started-with"
  say "kafka: started in $(since "$t0")s"
}

down_kafka() {
  local pid i
  pid=$(kafka_pid) || { rm -f "$KAFKA_PID"; return 0; }
  kill "$pid" 2>/dev/null || true   # controlled shutdown: a few seconds on one node
  for ((i = 0; i < 120; i++)); do kafka_is_ours "$pid" || break; sleep 0.25; done
  if kafka_is_ours "$pid"; then
    say "kafka: pid $pid ignored SIGTERM for 30s; killing it"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$KAFKA_PID"
}

kafka_status() {
  if kafka_healthy; then
    printf '%-9s running  pid %-8s port %-6s data %s (controller %s)\n' kafka "$(kafka_pid)" "$KAFKA_PORT" "$KAFKA_DIR" "$CONTROLLER_PORT"
    return 0
  fi
  printf '%-9s stopped  %-12s port %-6s data %s\n' kafka '' "$KAFKA_PORT" "$KAFKA_DIR"
  return 1
}
