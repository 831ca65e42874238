#!/usr/bin/env bash
# Single-node Apache Kafka (KRaft, combined broker+controller) for local dev and tests.
# The broker comes from Maven Central (see pom.xml next to this file); only java + mvn are needed.
#
#   scripts/kafka/kafka.sh fetch        download the broker jars into $KAFKA_CACHE_DIR/libs (once)
#   scripts/kafka/kafka.sh start        fetch if needed, format once, start in background, wait ready
#   scripts/kafka/kafka.sh stop         SIGTERM, wait up to $KAFKA_STOP_TIMEOUT s, then SIGKILL
#   scripts/kafka/kafka.sh status       exit 0 = running and ready, 1 = running not ready, 3 = stopped
#   scripts/kafka/kafka.sh wait         wait until ready (up to $KAFKA_WAIT_TIMEOUT s)
#   scripts/kafka/kafka.sh topics ...   org.apache.kafka.tools.TopicCommand against this broker
#   scripts/kafka/kafka.sh run-class CLASS [ARGS...]   any class with the Kafka classpath
#   scripts/kafka/kafka.sh bootstrap    print host:port of the client listener
#   scripts/kafka/kafka.sh logs         tail the broker's log
#
# Environment (defaults in brackets):
#   KAFKA_PORT [9092]                 client (broker) listener, 127.0.0.1 only
#   KAFKA_CONTROLLER_PORT [KAFKA_PORT+1]  controller listener (9093 for the default port)
#   KAFKA_CACHE_DIR [<repo>/.cache/kafka]  jars live in $KAFKA_CACHE_DIR/libs
#   KAFKA_DATA_DIR [$KAFKA_CACHE_DIR/data-$KAFKA_PORT]  config, logs, pid file and topic data
#   KAFKA_HEAP [384m]                 -Xmx of the broker
#   KAFKA_VERSION [3.9.2]             org.apache.kafka:kafka_2.13 version
#   KAFKA_WAIT_TIMEOUT [90]           seconds `start`/`wait` wait for readiness
#   KAFKA_STOP_TIMEOUT [30]           seconds `stop` waits after SIGTERM before SIGKILL
#   KAFKA_MAVEN_REPO [unset]          if set, passed to mvn as -Dmaven.repo.local
#   KAFKA_JAVA [java]                 java binary
#   KAFKA_JVM_OPTS [unset]            extra JVM flags for the broker (a -XX:+Use*GC flag replaces Serial GC)
#   KAFKA_EXTRA_CONFIG [unset]        extra server.properties lines, appended last (they win)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"

KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_CACHE_DIR="${KAFKA_CACHE_DIR:-$REPO_ROOT/.cache/kafka}"
KAFKA_DATA_DIR="${KAFKA_DATA_DIR:-$KAFKA_CACHE_DIR/data-$KAFKA_PORT}"
KAFKA_HEAP="${KAFKA_HEAP:-384m}"
KAFKA_WAIT_TIMEOUT="${KAFKA_WAIT_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
KAFKA_JAVA="${KAFKA_JAVA:-java}"
KAFKA_HOST=127.0.0.1
# Absolute paths: the broker runs from its data dir, and its pid is checked against its cmdline.
[[ "$KAFKA_CACHE_DIR" == /* ]] || KAFKA_CACHE_DIR="$PWD/$KAFKA_CACHE_DIR"
[[ "$KAFKA_DATA_DIR" == /* ]] || KAFKA_DATA_DIR="$PWD/$KAFKA_DATA_DIR"
NODE_ID=1

LIBS_DIR="$KAFKA_CACHE_DIR/libs"
MARKER="$LIBS_DIR/.fetched"
CONFIG="$KAFKA_DATA_DIR/server.properties"
LOG4J_CONFIG="$KAFKA_DATA_DIR/log4j.properties"
TOOLS_LOG4J_CONFIG="$KAFKA_DATA_DIR/tools-log4j.properties"
LOG_DIRS="$KAFKA_DATA_DIR/kraft-logs"
APP_LOG_DIR="$KAFKA_DATA_DIR/logs"
OUT_FILE="$KAFKA_DATA_DIR/kafka.out"
PID_FILE="$KAFKA_DATA_DIR/kafka.pid"

log() { printf '[kafka:%s] %s\n' "$KAFKA_PORT" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

now_ms() { date +%s%3N; }

# Run a command while holding an exclusive lock on FILE (flock if present, else unlocked).
with_lock() {
  local file="$1"; shift
  mkdir -p "$(dirname "$file")"
  if command -v flock >/dev/null 2>&1; then
    (
      flock -x 9
      "$@"
    ) 9>"$file"
  else
    "$@"
  fi
}

# ---------------------------------------------------------------------------------------- fetch
fetched() {
  [[ -f "$MARKER" ]] && [[ "$(cat "$MARKER")" == "kafka_2.13:$KAFKA_VERSION" ]] \
    && [[ -f "$LIBS_DIR/kafka_2.13-$KAFKA_VERSION.jar" ]]
}

do_fetch() {
  if fetched; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found: Maven is needed to fetch Kafka"
  local t0 tmp
  t0=$(now_ms)
  log "fetching org.apache.kafka:kafka_2.13:$KAFKA_VERSION from Maven into $LIBS_DIR"
  tmp="$KAFKA_CACHE_DIR/libs.tmp.$$"
  rm -rf "$tmp"
  local -a mvn_args=(-q -B -Dstyle.color=never -f "$SCRIPT_DIR/pom.xml"
    dependency:copy-dependencies "-Dkafka.version=$KAFKA_VERSION" "-Dkafka.libs.dir=$tmp")
  if [[ -n "${KAFKA_MAVEN_REPO:-}" ]]; then
    mvn_args+=("-Dmaven.repo.local=$KAFKA_MAVEN_REPO")
  fi
  if ! mvn "${mvn_args[@]}" </dev/null >"$tmp.mvn.log" 2>&1; then
    cat "$tmp.mvn.log" >&2
    rm -rf "$tmp" "$tmp.mvn.log"
    die "mvn dependency:copy-dependencies failed"
  fi
  rm -f "$tmp.mvn.log"
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || { rm -rf "$tmp"; die "fetch produced no kafka jar"; }
  printf 'kafka_2.13:%s\n' "$KAFKA_VERSION" >"$tmp/.fetched"
  # Swap in whole so a half-done fetch or an older version is never mixed in.
  rm -rf "$LIBS_DIR"
  mv "$tmp" "$LIBS_DIR"
  log "fetched $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars in $(( ($(now_ms) - t0) / 1000 ))s"
}

cmd_fetch() {
  mkdir -p "$KAFKA_CACHE_DIR"
  fetched && return 0
  with_lock "$KAFKA_CACHE_DIR/.fetch.lock" do_fetch
}

# ------------------------------------------------------------------------------------- helpers
# Java for command-line tools: tiny heap, fast start-up, quiet logging.
run_tool() {
  local class="$1"; shift
  "$KAFKA_JAVA" -Xmx128m -Xss1m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Djava.awt.headless=true "-Dlog4j.configuration=file:$TOOLS_LOG4J_CONFIG" \
    -cp "$LIBS_DIR/*" "$class" "$@" </dev/null
}

write_tools_log4j() {
  mkdir -p "$KAFKA_DATA_DIR"
  cat >"$TOOLS_LOG4J_CONFIG" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
# AdminClient logs every refused connection while the broker is still starting.
log4j.logger.org.apache.kafka.clients=ERROR
EOF
}

read_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  printf '%s' "$pid"
}

# True if PID exists and is not a zombie.
alive() {
  local pid="$1" state
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/stat" ]]; then
    state="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1)" || return 1
    [[ "$state" != Z && "$state" != X ]] || return 1
  fi
  return 0
}

# True if PID is alive and is our broker (guards against a stale pid file reused by the OS).
is_our_broker() {
  local pid="$1" cmdline
  alive "$pid" || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
    [[ "$cmdline" == *kafka.Kafka*"$CONFIG"* ]] || return 1
  fi
  return 0
}

running_pid() {
  local pid
  pid="$(read_pid)" || return 1
  is_our_broker "$pid" || return 1
  printf '%s' "$pid"
}

port_open() {
  (exec 3<>"/dev/tcp/$KAFKA_HOST/$1") 2>/dev/null
}

# Real readiness probe: the broker answers ApiVersions on the client listener AND lists itself
# in a Metadata response (in KRaft a broker is only listed once the controller has unfenced it,
# i.e. it can host partitions, so topic creation right after this succeeds).
probe() {
  local out
  local -a guard=()
  command -v timeout >/dev/null 2>&1 && guard=(timeout 20)
  out="$("${guard[@]}" "$KAFKA_JAVA" -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    "-Dlog4j.configuration=file:$TOOLS_LOG4J_CONFIG" -cp "$LIBS_DIR/*" \
    kafka.admin.BrokerApiVersionsCommand \
    --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" 2>/dev/null)" || return 1
  [[ "$out" == *"(id: $NODE_ID rack:"*"Produce(0):"* ]]
}

file_size() { if [[ -f "$1" ]]; then wc -c <"$1" | tr -d ' '; else echo 0; fi; }

# Class-data sharing (AppCDS): the classes the broker loads, archived by the JVM when a broker started
# without an archive stops gracefully, then mapped by every later start: about a third off the broker's
# start-up here (scripts/kafka/README.md). One archive per set of jars and java binary (either changing
# makes a new one); a JVM that cannot use an archive ignores it and starts as without.
cds_archive() {
  local java_bin
  java_bin="$(readlink -f "$(command -v "$KAFKA_JAVA")" 2>/dev/null || printf '%s' "$KAFKA_JAVA")"
  printf '%s/cds-%s.jsa' "$KAFKA_CACHE_DIR" \
    "$( { printf '%s\n' "$java_bin"; stat -c %Y "$java_bin" 2>/dev/null; cat "$MARKER"; ls "$LIBS_DIR"; } | cksum | cut -d' ' -f1)"
}
# Where this broker's JVM writes a new archive as it exits; `stop` moves it into place once the broker is gone.
cds_pending() { printf '%s.%s.new' "$(cds_archive)" "$KAFKA_PORT"; }

# Has the broker logged "Kafka Server started" past byte OFFSET of server.log?
started_logged() {
  local offset="$1" f="$APP_LOG_DIR/server.log"
  [[ -f "$f" ]] || return 1
  # Rotated since (file shorter than the offset): cannot tell, let the probe decide.
  (( $(file_size "$f") >= offset )) || return 0
  tail -c "+$((offset + 1))" "$f" | grep -q 'Kafka Server started'
}

# Wait until ready or DEADLINE (epoch ms). Returns 2 at once if PID (if given) dies.
# (Liveness by pid only: right after the fork the process is not yet exec'd into java.)
# With LOG_OFFSET (set by `start`), the JVM probe runs once the broker has logged that it started
# (or every 3 s regardless), so probe JVMs do not compete for the 2 cores with a starting broker.
wait_ready() {
  local deadline="$1" pid="${2:-}" log_offset="${3:-}" last_probe
  last_probe=$(now_ms)
  while :; do
    if [[ -n "$pid" ]] && ! alive "$pid"; then
      log "broker process $pid exited; last lines of $APP_LOG_DIR/server.log and $OUT_FILE:"
      tail -n 30 "$APP_LOG_DIR/server.log" >&2 2>/dev/null || true
      tail -n 30 "$OUT_FILE" >&2 2>/dev/null || true
      return 2
    fi
    # Cheap TCP check first, so that we only spend a JVM launch once something listens.
    if port_open "$KAFKA_PORT"; then
      if [[ -z "$log_offset" ]] || started_logged "$log_offset" \
          || (( $(now_ms) - last_probe >= 3000 )); then
        last_probe=$(now_ms)
        probe && return 0
      fi
    fi
    if (( $(now_ms) >= deadline )); then
      return 1
    fi
    sleep 0.1
  done
}

# ------------------------------------------------------------------------------------- config
write_config() {
  mkdir -p "$KAFKA_DATA_DIR" "$LOG_DIRS" "$APP_LOG_DIR"
  cat >"$CONFIG" <<EOF
# Generated by scripts/kafka/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=$NODE_ID
controller.quorum.bootstrap.servers=$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$LOG_DIRS

# Single node: internal topics with one replica, no rebalance delay.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
default.replication.factor=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0

# Topics are created explicitly by the app.
auto.create.topics.enable=false
delete.topic.enable=true
num.partitions=3

# Small machine: few threads.
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=2
background.threads=4
num.replica.fetchers=1

# Modest retention, small segments.
log.retention.hours=24
log.retention.bytes=268435456
log.segment.bytes=67108864
log.retention.check.interval.ms=60000
metadata.log.max.record.bytes.between.snapshots=10485760

# After a kill -9 the restarted controller keeps the old broker registration alive for one
# session timeout (default 9 s) before the new incarnation may register: keep it short.
broker.heartbeat.interval.ms=1000
broker.session.timeout.ms=4000

# Restarts (also after kill -9) reuse log.dirs: the metadata log and topic data are recovered
# on start, and format is skipped because meta.properties exists.
unclean.leader.election.enable=false
EOF
  # Extra broker properties, one per line, appended last so they win (measurements, tuning): KAFKA_EXTRA_CONFIG.
  if [[ -n "${KAFKA_EXTRA_CONFIG:-}" ]]; then printf '%s\n' "$KAFKA_EXTRA_CONFIG" >>"$CONFIG"; fi

  cat >"$LOG4J_CONFIG" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$APP_LOG_DIR/server.log
log4j.appender.file.MaxFileSize=10MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.org.apache.kafka.clients=WARN
EOF
  write_tools_log4j
}

# Format the storage once. meta.properties present => already formatted (kept across restarts).
format_storage() {
  if [[ -f "$LOG_DIRS/meta.properties" ]]; then
    return 0
  fi
  local cluster_id
  if [[ -f "$KAFKA_DATA_DIR/cluster.id" ]]; then
    cluster_id="$(cat "$KAFKA_DATA_DIR/cluster.id")"
  else
    # A Kafka cluster id is a base64url-encoded 16-byte UUID (22 chars, no padding).
    # An id starting with '-' would be read as an option by the storage tool: draw again (as Kafka's
    # own Uuid.randomUuid does).
    cluster_id="-"
    while [[ "$cluster_id" == -* ]]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    done
    printf '%s\n' "$cluster_id" >"$KAFKA_DATA_DIR/cluster.id"
  fi
  log "formatting $LOG_DIRS (cluster id $cluster_id)"
  run_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$CONFIG" \
    --standalone --ignore-formatted >>"$OUT_FILE" 2>&1 \
    || { tail -n 20 "$OUT_FILE" >&2; die "storage format failed"; }
}

# ---------------------------------------------------------------------------------- commands
do_start() {
  local t0 pid deadline
  t0=$(now_ms)
  deadline=$(( t0 + KAFKA_WAIT_TIMEOUT * 1000 ))

  if pid="$(running_pid)"; then
    # Already running (maybe still starting): just wait for it.
    write_tools_log4j
    if wait_ready "$deadline" "$pid"; then
      log "already running (pid $pid) and ready on $KAFKA_HOST:$KAFKA_PORT"
      return 0
    fi
    die "running (pid $pid) but not ready after ${KAFKA_WAIT_TIMEOUT}s; see $APP_LOG_DIR/server.log"
  fi
  rm -f "$PID_FILE"

  local p
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    if port_open "$p"; then
      die "port $KAFKA_HOST:$p is already in use by another process (another broker? set KAFKA_PORT/KAFKA_CONTROLLER_PORT)"
    fi
  done

  cmd_fetch
  write_config
  format_storage

  local -a jvm=(
    "-Xmx$KAFKA_HEAP" -Xms128m -Xss1m
    -XX:+UseSerialGC -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=96m
    -XX:MaxDirectMemorySize=256m -XX:CICompilerCount=2 -XX:+ExitOnOutOfMemoryError -Xshare:auto
    -Djava.awt.headless=true -Dkafka.logs.dir="$APP_LOG_DIR"
    "-Dlog4j.configuration=file:$LOG4J_CONFIG"
  )
  local cds
  cds="$(cds_archive)"
  rm -f "$(cds_pending)"
  if [[ -f "$cds" ]]; then jvm+=("-XX:SharedArchiveFile=$cds"); else jvm+=("-XX:ArchiveClassesAtExit=$(cds_pending)"); fi
  # Its warnings (classes it cannot archive: hundreds of lines) would fill kafka.out.
  jvm+=(-Xlog:cds=off -Xlog:cds+dynamic=off)
  # Serial GC: on 2 shared cores with a few-hundred-MB heap it gave the same latency as G1 with
  # ~20% less RSS under load and no concurrent GC threads (see scripts/kafka/README.md).
  # Extra/overriding JVM flags, e.g. KAFKA_JVM_OPTS='-XX:+UseG1GC' (replaces Serial).
  if [[ -n "${KAFKA_JVM_OPTS:-}" ]]; then
    local -a extra=() kept=()
    local f
    read -r -a extra <<<"$KAFKA_JVM_OPTS"
    if [[ "$KAFKA_JVM_OPTS" == *-XX:+Use*GC* ]]; then
      for f in "${jvm[@]}"; do [[ "$f" == -XX:+UseSerialGC ]] || kept+=("$f"); done
      jvm=("${kept[@]}")
    fi
    jvm+=("${extra[@]}")
  fi
  local log_offset
  log_offset="$(file_size "$APP_LOG_DIR/server.log")"
  {
    printf '\n===== %s starting kafka %s on %s:%s =====\n' \
      "$(date -u +%FT%TZ)" "$KAFKA_VERSION" "$KAFKA_HOST" "$KAFKA_PORT"
  } >>"$OUT_FILE"

  # New session (setsid) so that the broker outlives this script and is not hit by signals
  # sent to the caller's process group; `stop` ends it by pid.
  local -a launcher=()
  command -v setsid >/dev/null 2>&1 && launcher=(setsid)
  (
    exec 9>&-  # do not let the broker inherit the start/stop lock
    cd "$KAFKA_DATA_DIR"
    exec "${launcher[@]}" "$KAFKA_JAVA" "${jvm[@]}" -cp "$LIBS_DIR/*" kafka.Kafka "$CONFIG" \
      </dev/null >>"$OUT_FILE" 2>&1
  ) &
  pid=$!
  printf '%s\n' "$pid" >"$PID_FILE"
  log "started pid $pid; waiting for readiness (log: $APP_LOG_DIR/server.log)"

  local rc=0
  wait_ready "$deadline" "$pid" "$log_offset" || rc=$?
  if (( rc == 2 )); then
    rm -f "$PID_FILE"
    die "broker failed to start"
  elif (( rc != 0 )); then
    log "not ready after ${KAFKA_WAIT_TIMEOUT}s; stopping it"
    tail -n 30 "$APP_LOG_DIR/server.log" >&2 2>/dev/null || true
    do_stop || true
    die "broker failed to become ready"
  fi
  log "ready on $KAFKA_HOST:$KAFKA_PORT in $(( $(now_ms) - t0 )) ms (pid $pid)"
}

cmd_start() {
  mkdir -p "$KAFKA_DATA_DIR"
  with_lock "$KAFKA_DATA_DIR/.lock" do_start
}

do_stop() {
  local pid t0 deadline
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  t0=$(now_ms)
  deadline=$(( t0 + KAFKA_STOP_TIMEOUT * 1000 ))
  log "stopping pid $pid (SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || true
  while is_our_broker "$pid"; do
    if (( $(now_ms) >= deadline )); then
      log "still running after ${KAFKA_STOP_TIMEOUT}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      local _
      for _ in $(seq 1 50); do
        is_our_broker "$pid" || break
        sleep 0.1
      done
      rm -f "$(cds_pending)" # cut short while writing it, maybe
      break
    fi
    sleep 0.1
  done
  is_our_broker "$pid" && die "pid $pid did not exit"
  rm -f "$PID_FILE"
  if [[ -s "$(cds_pending)" ]]; then mv -f "$(cds_pending)" "$(cds_archive)"; log "class-data archive written for the next starts"; fi
  log "stopped in $(( $(now_ms) - t0 )) ms"
}

cmd_stop() {
  [[ -d "$KAFKA_DATA_DIR" ]] || { log "not running"; return 0; }
  with_lock "$KAFKA_DATA_DIR/.lock" do_stop
}

cmd_status() {
  local pid
  if ! pid="$(running_pid)"; then
    echo "stopped (port $KAFKA_PORT, data $KAFKA_DATA_DIR)"
    return 3
  fi
  write_tools_log4j
  if port_open "$KAFKA_PORT" && probe; then
    echo "running and ready: pid $pid, bootstrap $KAFKA_HOST:$KAFKA_PORT, data $KAFKA_DATA_DIR"
    return 0
  fi
  echo "running but not ready: pid $pid, port $KAFKA_PORT"
  return 1
}

cmd_wait() {
  local pid
  pid="$(running_pid)" || die "not running"
  write_tools_log4j
  local t0
  t0=$(now_ms)
  wait_ready $(( t0 + KAFKA_WAIT_TIMEOUT * 1000 )) "$pid" \
    || die "not ready after ${KAFKA_WAIT_TIMEOUT}s"
  log "ready on $KAFKA_HOST:$KAFKA_PORT"
}

need_libs() {
  fetched || die "Kafka not fetched yet: run '$0 fetch' (or start)"
  [[ -f "$TOOLS_LOG4J_CONFIG" ]] || write_tools_log4j
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

main() {
  local cmd="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    fetch) cmd_fetch; log "libs ready in $LIBS_DIR (kafka_2.13 $KAFKA_VERSION)" ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    restart) cmd_stop; cmd_start ;;
    status) cmd_status ;;
    wait) cmd_wait ;;
    bootstrap) echo "$KAFKA_HOST:$KAFKA_PORT" ;;
    topics) need_libs; run_tool org.apache.kafka.tools.TopicCommand \
              --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" "$@" ;;
    run-class) [[ $# -ge 1 ]] || die "usage: $0 run-class CLASS [ARGS...]"
               need_libs; run_tool "$@" ;;
    logs) tail -n "${LINES_TO_SHOW:-100}" "$APP_LOG_DIR/server.log" ;;
    -h|--help|help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

main "$@"
