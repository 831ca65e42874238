#!/usr/bin/env bash
# Single-node Apache Kafka (KRaft, combined broker+controller) on 127.0.0.1, for npm start, npm test, the
# bench and chaos. The broker comes from Maven Central (pom.xml beside this file); it needs java 17, mvn,
# GNU coreutils and util-linux (flock, setsid). Why, and how to drop it: README.md beside this file.
#
#   kafka.sh fetch        download the broker jars into $KAFKA_CACHE_DIR/libs (once per version)
#   kafka.sh start        fetch if needed, format once, start in the background, wait until ready
#   kafka.sh stop         SIGTERM, wait up to $KAFKA_STOP_TIMEOUT s, then SIGKILL
#   kafka.sh restart      stop, then start
#   kafka.sh status       exit 0 = running and ready, 1 = running not ready, 3 = stopped
#   kafka.sh wait         wait until ready (up to $KAFKA_WAIT_TIMEOUT s)
#   kafka.sh topics ...   org.apache.kafka.tools.TopicCommand against this broker
#   kafka.sh run-class CLASS [ARGS...]   any class with the Kafka classpath
#   kafka.sh bootstrap    print host:port of the client listener
#   kafka.sh logs         tail the broker's log ($LINES_TO_SHOW lines, default 100)
#
# Environment (defaults in brackets):
#   KAFKA_PORT [9092]                 client (broker) listener, 127.0.0.1 only
#   KAFKA_CONTROLLER_PORT [KAFKA_PORT+1]  controller listener (9093 for the default port)
#   KAFKA_CACHE_DIR [<repo>/.cache/kafka]  jars live in $KAFKA_CACHE_DIR/libs
#   KAFKA_DATA_DIR [$KAFKA_CACHE_DIR/data-$KAFKA_PORT]  config, logs, pid file and topic data (delete it,
#                                     broker stopped, to start empty)
#   KAFKA_HEAP [384m]                 -Xmx of the broker
#   KAFKA_VERSION [3.9.2]             org.apache.kafka:kafka_2.13 version
#   KAFKA_WAIT_TIMEOUT [90]           seconds `start`/`wait` wait for readiness
#   KAFKA_STOP_TIMEOUT [30]           seconds `stop` waits after SIGTERM before SIGKILL
#   KAFKA_MAVEN_REPO [unset]          if set, passed to mvn as -Dmaven.repo.local
#   KAFKA_JAVA [java]                 java binary
#   KAFKA_JVM_OPTS [unset]            extra JVM flags for the broker (a -XX:+Use*GC flag replaces Serial GC)
#   KAFKA_EXTRA_CONFIG [unset]        extra server.properties lines, appended last (they win)
#   KAFKA_ADMIN_PASSWORD_FILE [unset] a file holding the password of the super user `admin` (16+ letters,
#                                     digits, `_`, `-`): the client listener then takes SASL/SCRAM-SHA-512 only
#                                     and every request is checked against the ACLs (StandardAuthorizer);
#                                     `admin` is added when the storage is formatted, the apps' principals by
#                                     the setup step (libs/kafka: bus-security.ts). Unset: plain, no ACLs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_WAIT_TIMEOUT="${KAFKA_WAIT_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
KAFKA_JAVA="${KAFKA_JAVA:-java}"
# Absolute (symlinks kept): the broker runs from its data dir, and its pid is checked against its command line.
KAFKA_CACHE_DIR="$(realpath -sm "${KAFKA_CACHE_DIR:-$here/../../.cache/kafka}")"
DATA="$(realpath -sm "${KAFKA_DATA_DIR:-$KAFKA_CACHE_DIR/data-$KAFKA_PORT}")"
HOST=127.0.0.1
NODE_ID=1
LIBS="$KAFKA_CACHE_DIR/libs"
CONFIG="$DATA/server.properties"
PID_FILE="$DATA/kafka.pid"
OUT="$DATA/kafka.out"
SERVER_LOG="$DATA/logs/server.log"
TOOLS_LOG4J="$DATA/tools-log4j.properties"
# The command-line tools' client settings (SASL as `admin` when authentication is on); mode 600.
CLIENT_CONFIG="$DATA/client.properties"
# Java for the command-line tools and the readiness probe: small heap, fast start-up, quiet logging.
TOOL_JAVA=("$KAFKA_JAVA" -Xmx128m -Xss1m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto
  -Djava.awt.headless=true "-Dlog4j.configuration=file:$TOOLS_LOG4J" -cp "$LIBS/*")

log() { printf '[kafka:%s] %s\n' "$KAFKA_PORT" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
now_ms() { date +%s%3N; }
size_of() { if [[ -f "$1" ]]; then wc -c <"$1"; else echo 0; fi; }
# Runs "${@:2}" holding an exclusive lock on the file $1.
locked() { mkdir -p "$(dirname "$1")"; (flock -x 9 && "${@:2}") 9>"$1"; }

# ---------------------------------------------------------------------------------------- fetch
fetched() { [[ "$(cat "$LIBS/.fetched" 2>/dev/null)" == "kafka_2.13:$KAFKA_VERSION" && -f "$LIBS/kafka_2.13-$KAFKA_VERSION.jar" ]]; }

do_fetch() {
  fetched && return 0
  command -v mvn >/dev/null || die "mvn not found: Maven is needed to fetch Kafka"
  local t0 tmp="$KAFKA_CACHE_DIR/libs.tmp.$$"
  t0=$(now_ms)
  log "fetching org.apache.kafka:kafka_2.13:$KAFKA_VERSION from Maven into $LIBS"
  rm -rf "$tmp"
  if ! mvn -q -B -Dstyle.color=never -f "$here/pom.xml" dependency:copy-dependencies "-Dkafka.version=$KAFKA_VERSION" \
    "-Dkafka.libs.dir=$tmp" ${KAFKA_MAVEN_REPO:+"-Dmaven.repo.local=$KAFKA_MAVEN_REPO"} </dev/null >"$tmp.log" 2>&1 \
    || [[ ! -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]]; then
    cat "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log"
    die "mvn dependency:copy-dependencies fetched no kafka_2.13-$KAFKA_VERSION.jar"
  fi
  rm -f "$tmp.log"
  echo "kafka_2.13:$KAFKA_VERSION" >"$tmp/.fetched"
  # Swapped in whole, so that a half-done fetch or another version is never mixed in.
  rm -rf "$LIBS" && mv "$tmp" "$LIBS"
  log "fetched $(find "$LIBS" -name '*.jar' | wc -l) jars in $((($(now_ms) - t0) / 1000))s"
}

cmd_fetch() { fetched || locked "$KAFKA_CACHE_DIR/.fetch.lock" do_fetch; }

# ------------------------------------------------------------------------------- process state
# Alive and not a zombie.
alive() { kill -0 "$1" 2>/dev/null && [[ "$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" != [ZX] ]]; }
# Alive and our broker: a stale pid file may name a pid the system has given to another process since.
is_broker() { alive "$1" && [[ "$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)" == *kafka.Kafka*"$CONFIG"* ]]; }
running_pid() {
  local pid
  [[ -f "$PID_FILE" ]] && pid="$(tr -dc '0-9' <"$PID_FILE")" && [[ -n "$pid" ]] && is_broker "$pid" && echo "$pid"
}
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# Ready: the broker answers ApiVersions on the client listener and lists itself in the metadata, which in
# KRaft it does once the controller has unfenced it (it can host partitions: topics can be created).
probe() {
  local out
  out="$(timeout 20 "${TOOL_JAVA[@]}" kafka.admin.BrokerApiVersionsCommand --bootstrap-server "$HOST:$KAFKA_PORT" \
    --command-config "$CLIENT_CONFIG" </dev/null 2>/dev/null)" || return 1
  [[ "$out" == *"(id: $NODE_ID rack:"*"Produce(0):"* ]]
}

# Has the broker logged "Kafka Server started" past byte $1 of server.log? (Rotated since: cannot tell, yes.)
started_since() {
  [[ -f "$SERVER_LOG" ]] || return 1
  (($(size_of "$SERVER_LOG") >= $1)) || return 0
  grep -q 'Kafka Server started' < <(tail -c "+$(($1 + 1))" "$SERVER_LOG")
}

# Waits until ready or the deadline $1 (epoch ms); returns 2 at once if the pid $2 (when given) dies (by pid
# only: right after the fork the process is not java yet). With a server.log offset $3 (start), the probe's
# JVM runs once the broker has logged that it started, or every 3 s, so that probes do not compete for the
# 2 cores with a starting broker. A TCP connect comes first: no JVM is launched before something listens.
wait_ready() {
  local deadline="$1" pid="${2:-}" offset="${3:-}" last_probe
  last_probe=$(now_ms)
  while :; do
    if [[ -n "$pid" ]] && ! alive "$pid"; then
      log "broker process $pid exited; the end of $SERVER_LOG and $OUT:"
      tail -n 30 "$SERVER_LOG" "$OUT" >&2 2>/dev/null || true
      return 2
    fi
    if port_open "$KAFKA_PORT" && { [[ -z "$offset" ]] || started_since "$offset" || (($(now_ms) - last_probe >= 3000)); }; then
      last_probe=$(now_ms)
      probe && return 0
    fi
    (($(now_ms) < deadline)) || return 1
    sleep 0.1
  done
}

# Class-data sharing (AppCDS): a broker started without an archive has its JVM archive the classes it
# loaded when it stops gracefully; every later start maps it, about a quarter off the start-up (README.md).
# One archive per set of jars and java binary; a JVM that cannot use one ignores it.
cds_archive() {
  local java_bin
  java_bin="$(readlink -f "$(command -v "$KAFKA_JAVA")" 2>/dev/null || printf '%s' "$KAFKA_JAVA")"
  printf '%s/cds-%s.jsa' "$KAFKA_CACHE_DIR" \
    "$({ printf '%s\n' "$java_bin"; stat -c %Y "$java_bin" 2>/dev/null; cat "$LIBS/.fetched"; ls "$LIBS"; } | cksum | cut -d' ' -f1)"
}
# Where a broker writes a new archive as it exits; `stop` moves it into place once the broker is gone.
cds_pending() { printf '%s.%s.new' "$(cds_archive)" "$KAFKA_PORT"; }

# ------------------------------------------------------------------------------------- config
# The admin's password, checked: it goes into a SCRAM credential and a JAAS line unquoted.
admin_password() {
  local pw
  pw="$(tr -d '\n' <"$KAFKA_ADMIN_PASSWORD_FILE")" || die "cannot read KAFKA_ADMIN_PASSWORD_FILE $KAFKA_ADMIN_PASSWORD_FILE"
  [[ "$pw" =~ ^[A-Za-z0-9_-]{16,}$ ]] || die "KAFKA_ADMIN_PASSWORD_FILE must hold 16+ letters, digits, '_' or '-'"
  printf '%s' "$pw"
}

write_tools_log4j() {
  mkdir -p "$DATA"
  (
    umask 077
    if [[ -n "${KAFKA_ADMIN_PASSWORD_FILE:-}" ]]; then
      printf '%s\n' 'security.protocol=SASL_PLAINTEXT' 'sasl.mechanism=SCRAM-SHA-512' \
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$(admin_password)\";" >"$CLIENT_CONFIG"
    else
      : >"$CLIENT_CONFIG"
    fi
  )
  cat >"$TOOLS_LOG4J" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
# AdminClient logs every refused connection while the broker is still starting.
log4j.logger.org.apache.kafka.clients=ERROR
EOF
}

# The listeners: with KAFKA_ADMIN_PASSWORD_FILE, clients authenticate (SASL/SCRAM-SHA-512) and are authorised
# by ACLs. The controller listener stays plain on 127.0.0.1: KRaft cannot take SCRAM there (its credentials
# live in the metadata it serves), so its principal, ANONYMOUS, must be a super user; no client uses it.
listener_config() {
  if [[ -z "${KAFKA_ADMIN_PASSWORD_FILE:-}" ]]; then
    printf '%s\n' "listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT" \
      "advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT" inter.broker.listener.name=PLAINTEXT \
      listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
    return
  fi
  printf '%s\n' "listeners=BROKER://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT" \
    "advertised.listeners=BROKER://$HOST:$KAFKA_PORT" inter.broker.listener.name=BROKER \
    listener.security.protocol.map=CONTROLLER:PLAINTEXT,BROKER:SASL_PLAINTEXT \
    sasl.enabled.mechanisms=SCRAM-SHA-512 sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512 \
    '# One node: no other broker logs in to this one, so the login module needs no credential of its own.' \
    'listener.name.broker.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;' \
    authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer \
    'super.users=User:ANONYMOUS;User:admin' allow.everyone.if.no.acl.found=false
}

write_config() {
  mkdir -p "$DATA/kraft-logs" "$DATA/logs"
  cat >"$CONFIG" <<EOF
# Generated by offline/kafka/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=$NODE_ID
controller.quorum.bootstrap.servers=$HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
log.dirs=$DATA/kraft-logs
$(listener_config)

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
  # Extra broker properties (measurements, tuning), appended last so that they win.
  if [[ -n "${KAFKA_EXTRA_CONFIG:-}" ]]; then printf '%s\n' "$KAFKA_EXTRA_CONFIG" >>"$CONFIG"; fi
  cat >"$DATA/log4j.properties" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$SERVER_LOG
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

# Formats the storage once: meta.properties present means formatted (kept across restarts).
format_storage() {
  [[ ! -f "$DATA/kraft-logs/meta.properties" ]] || return 0
  if [[ ! -f "$DATA/cluster.id" ]]; then
    # A base64url-encoded 16-byte UUID (22 characters). One starting with '-' would be read as an option by
    # the storage tool: drawn again, as Kafka's own Uuid.randomUuid does.
    local id=-
    while [[ "$id" == -* ]]; do id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"; done
    echo "$id" >"$DATA/cluster.id"
  fi
  log "formatting $DATA/kraft-logs (cluster id $(cat "$DATA/cluster.id"))"
  local scram=()
  [[ -z "${KAFKA_ADMIN_PASSWORD_FILE:-}" ]] || scram=(--add-scram "SCRAM-SHA-512=[name=admin,password=$(admin_password)]")
  "${TOOL_JAVA[@]}" kafka.tools.StorageTool format -t "$(cat "$DATA/cluster.id")" -c "$CONFIG" --standalone \
    --ignore-formatted "${scram[@]}" </dev/null >>"$OUT" 2>&1 || { tail -n 20 "$OUT" >&2; die "storage format failed"; }
}

# ---------------------------------------------------------------------------------- commands
do_start() {
  local t0 pid deadline p
  t0=$(now_ms)
  deadline=$((t0 + KAFKA_WAIT_TIMEOUT * 1000))
  if pid="$(running_pid)"; then # already running, maybe still starting: wait for it
    write_tools_log4j
    wait_ready "$deadline" "$pid" || die "running (pid $pid) but not ready after ${KAFKA_WAIT_TIMEOUT}s; see $SERVER_LOG"
    log "already running (pid $pid) and ready on $HOST:$KAFKA_PORT"
    return 0
  fi
  rm -f "$PID_FILE"
  # A port still answering for a moment after a broker was killed (seen once right after kill -9 in a test
  # run) is waited out; one that stays taken is another process's.
  local free_by=$(($(now_ms) + 15000))
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    while port_open "$p"; do
      (($(now_ms) < free_by)) || die "port $HOST:$p is already in use by another process (another broker? set KAFKA_PORT/KAFKA_CONTROLLER_PORT)"
      sleep 0.2
    done
  done
  cmd_fetch
  write_config
  format_storage

  # Serial GC: on 2 shared cores with a few-hundred-MB heap, G1's latency with about 20% less RSS under load
  # and no concurrent GC threads (README.md). A collector named in KAFKA_JVM_OPTS replaces it.
  local gc=-XX:+UseSerialGC extra=() cds offset
  [[ "${KAFKA_JVM_OPTS:-}" != *-XX:+Use*GC* ]] || gc=
  read -r -a extra <<<"${KAFKA_JVM_OPTS:-}"
  cds="$(cds_archive)"
  rm -f "$(cds_pending)"
  if [[ -f "$cds" ]]; then cds="-XX:SharedArchiveFile=$cds"; else cds="-XX:ArchiveClassesAtExit=$(cds_pending)"; fi
  local jvm=("-Xmx${KAFKA_HEAP:-384m}" -Xms128m -Xss1m ${gc:+"$gc"} -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=96m
    -XX:MaxDirectMemorySize=256m -XX:CICompilerCount=2 -XX:+ExitOnOutOfMemoryError -Xshare:auto
    -Djava.awt.headless=true "-Dkafka.logs.dir=$DATA/logs" "-Dlog4j.configuration=file:$DATA/log4j.properties"
    # The archive's warnings (hundreds of classes it cannot archive) would fill kafka.out.
    "$cds" -Xlog:cds=off -Xlog:cds+dynamic=off "${extra[@]}")
  offset="$(size_of "$SERVER_LOG")"
  printf '\n===== %s starting kafka %s on %s:%s =====\n' "$(date -u +%FT%TZ)" "$KAFKA_VERSION" "$HOST" "$KAFKA_PORT" >>"$OUT"
  # A session of its own (setsid): the broker outlives this script and the signals sent to the caller's
  # process group; `stop` ends it by pid. It must not inherit the lock (fd 9).
  (
    exec 9>&-
    cd "$DATA"
    exec setsid "$KAFKA_JAVA" "${jvm[@]}" -cp "$LIBS/*" kafka.Kafka "$CONFIG" </dev/null >>"$OUT" 2>&1
  ) &
  pid=$!
  echo "$pid" >"$PID_FILE"
  log "started pid $pid; waiting for readiness (log: $SERVER_LOG)"
  local rc=0
  wait_ready "$deadline" "$pid" "$offset" || rc=$?
  case $rc in
    0) log "ready on $HOST:$KAFKA_PORT in $(($(now_ms) - t0)) ms (pid $pid)" ;;
    2) rm -f "$PID_FILE" && die "broker failed to start" ;;
    *)
      log "not ready after ${KAFKA_WAIT_TIMEOUT}s; stopping it"
      tail -n 30 "$SERVER_LOG" >&2 2>/dev/null || true
      do_stop || true
      die "broker failed to become ready"
      ;;
  esac
}

do_stop() {
  local pid t0 deadline
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  t0=$(now_ms)
  deadline=$((t0 + KAFKA_STOP_TIMEOUT * 1000))
  log "stopping pid $pid (SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || true
  while is_broker "$pid" && (($(now_ms) < deadline)); do sleep 0.1; done
  if is_broker "$pid"; then
    log "still running after ${KAFKA_STOP_TIMEOUT}s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for _ in {1..50}; do is_broker "$pid" && sleep 0.1 || break; done
    rm -f "$(cds_pending)" # cut short while writing it, maybe
  fi
  ! is_broker "$pid" || die "pid $pid did not exit"
  rm -f "$PID_FILE"
  if [[ -s "$(cds_pending)" ]]; then
    mv -f "$(cds_pending)" "$(cds_archive)"
    log "class-data archive written for the next starts"
  fi
  log "stopped in $(($(now_ms) - t0)) ms"
}

cmd_stop() { if [[ -d "$DATA" ]]; then locked "$DATA/.lock" do_stop; else log "not running"; fi; }

cmd_status() {
  local pid
  pid="$(running_pid)" || { echo "stopped (port $KAFKA_PORT, data $DATA)" && return 3; }
  write_tools_log4j
  if port_open "$KAFKA_PORT" && probe; then
    echo "running and ready: pid $pid, bootstrap $HOST:$KAFKA_PORT, data $DATA"
  else
    echo "running but not ready: pid $pid, port $KAFKA_PORT" && return 1
  fi
}

cmd_wait() {
  local pid
  pid="$(running_pid)" || die "not running"
  write_tools_log4j
  wait_ready $(($(now_ms) + KAFKA_WAIT_TIMEOUT * 1000)) "$pid" || die "not ready after ${KAFKA_WAIT_TIMEOUT}s"
  log "ready on $HOST:$KAFKA_PORT"
}

need_libs() {
  fetched || die "Kafka not fetched yet: run '$0 fetch' (or start)"
  write_tools_log4j
}

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

cmd="${1:-}"
shift || true
case "$cmd" in
  fetch)
    cmd_fetch
    log "libs ready in $LIBS (kafka_2.13 $KAFKA_VERSION)"
    ;;
  start)
    mkdir -p "$DATA"
    locked "$DATA/.lock" do_start
    ;;
  stop) cmd_stop ;;
  restart)
    cmd_stop
    mkdir -p "$DATA"
    locked "$DATA/.lock" do_start
    ;;
  status) cmd_status ;;
  wait) cmd_wait ;;
  bootstrap) echo "$HOST:$KAFKA_PORT" ;;
  topics)
    need_libs
    "${TOOL_JAVA[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$HOST:$KAFKA_PORT" --command-config "$CLIENT_CONFIG" "$@" </dev/null
    ;;
  run-class)
    [[ $# -ge 1 ]] || die "usage: $0 run-class CLASS [ARGS...]"
    need_libs
    "${TOOL_JAVA[@]}" "$@" </dev/null
    ;;
  logs) tail -n "${LINES_TO_SHOW:-100}" "$SERVER_LOG" ;;
  -h | --help | help) usage ;;
  *)
    usage >&2
    exit 2
    ;;
esac
