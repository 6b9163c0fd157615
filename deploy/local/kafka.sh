#!/usr/bin/env bash
# Local single-node Apache Kafka 4.3.1 broker (KRaft, combined broker+controller) run from
# Maven Central jars, no Docker.
#
#   deploy/local/kafka.sh up NAME [PORT]   start (or reuse) instance NAME on 127.0.0.1:PORT,
#                                          controller on PORT+1; create the payments topics
#                                          (PORT defaults: dev=9092, test=19092)
#   deploy/local/kafka.sh down NAME        stop instance NAME (by pid only)
#   deploy/local/kafka.sh reset NAME       stop instance NAME and delete its data (fresh broker)
#   deploy/local/kafka.sh status NAME
#   deploy/local/kafka.sh topics NAME      list topics with partitions and cleanup.policy
#   deploy/local/kafka.sh libs             only download the broker jars
#   deploy/local/kafka.sh tool CLASS ARGS  run a Kafka CLI class on the broker classpath, e.g.
#       kafka.sh tool org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:9092 --list
#       kafka.sh tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server 127.0.0.1:9092 --topic T
#       kafka.sh tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server 127.0.0.1:9092 --topic T --from-beginning
#
# State: .local/kafka-libs (jars, downloaded once through ./mvnw from
# deploy/local/kafka/pom.xml), .local/kafka-NAME/{server.properties,data,logs,kafka.pid}.
# Env: KAFKA_HEAP_OPTS overrides the broker heap (default -Xms128m -Xmx256m);
#      KAFKA_JVM_OPTS adds broker JVM flags.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

KAFKA_VERSION=4.3.1
KAFKA_DIR="$LOCAL_DIR/kafka"
LIBS_DIR="$STATE_DIR/kafka-libs"
LIBS_MARKER="$LIBS_DIR/.complete"
HELPER_DIR="$STATE_DIR/kafka-helper"
CDS_DIR="$STATE_DIR/kafka-cds"
HOST=127.0.0.1
# Fixed cluster id (base64url of the 16 bytes "local-dev-kafka1") so every local broker
# is formatted the same way.
CLUSTER_ID=bG9jYWwtZGV2LWthZmthMQ
START_TIMEOUT_S=90

# Topics of decisions.md section 8: name:partitions:policy (delete | compact | keep = delete, no retention limit)
TOPICS=(
  payments.transactions.v1:3:keep
  payments.refunds.v1:3:keep
  payments.subscriptions.v1:3:delete
  payments.merchants.v1:3:compact
  payments.keys.v1:3:compact
  internal.billing.v1:3:delete
)

usage() {
  cat <<EOF
usage: $0 up NAME [PORT] | down NAME | reset NAME | status NAME | topics NAME | libs | tool CLASS [ARGS...]
  NAME: instance name, e.g. dev (default port 9092) or test (default port 19092)
EOF
}

default_port() {
  case "$1" in
    dev) echo 9092 ;;
    test) echo 19092 ;;
    *) echo "" ;;
  esac
}

check_name() {
  [[ -n "${1:-}" ]] || { usage >&2; die "kafka: instance NAME missing"; }
  [[ "$1" =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "kafka: bad instance name '$1' (use lowercase letters, digits, '-')"
}

libs_fingerprint() { sha256sum "$KAFKA_DIR/pom.xml" | cut -d' ' -f1; }

ensure_libs() {
  if [[ -f "$LIBS_MARKER" && "$(cat "$LIBS_MARKER")" == "$(libs_fingerprint)" ]] &&
    compgen -G "$LIBS_DIR/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null; then
    step "kafka: jars present in .local/kafka-libs ($(find "$LIBS_DIR" -name '*.jar' | wc -l) jars)"
    return 0
  fi
  step "kafka: downloading Kafka $KAFKA_VERSION jars from Maven Central into .local/kafka-libs (once)"
  rm -rf "$LIBS_DIR"
  mkdir -p "$STATE_DIR"
  # Maven's bundled Guice calls sun.misc.Unsafe; JDK 24+ warns loudly about it.
  local maven_opts
  maven_opts="${MAVEN_OPTS:-} $(unsafe_opt)"
  (cd "$REPO_ROOT" && MAVEN_OPTS="$maven_opts" "$REPO_ROOT/mvnw" -q -f "$KAFKA_DIR/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$LIBS_DIR" -DincludeScope=runtime) ||
    die "kafka: downloading the broker jars failed (see the Maven output above); check access to Maven Central / your ~/.m2/settings.xml mirror, then re-run"
  compgen -G "$LIBS_DIR/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null ||
    die "kafka: kafka_2.13-$KAFKA_VERSION.jar missing after download; delete .local/kafka-libs and re-run"
  libs_fingerprint >"$LIBS_MARKER"
  step "kafka: downloaded $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars"
}

# Compiles deploy/local/kafka/CreateTopics.java once (re-done when the source changes).
ensure_helper() {
  local src="$KAFKA_DIR/CreateTopics.java"
  if [[ -f "$HELPER_DIR/CreateTopics.class" && ! "$src" -nt "$HELPER_DIR/CreateTopics.class" ]]; then
    return 0
  fi
  rm -rf "$HELPER_DIR"
  mkdir -p "$HELPER_DIR"
  javac -nowarn --release 21 -cp "$LIBS_DIR/*" -d "$HELPER_DIR" "$src" ||
    die "kafka: compiling $src failed"
}

# JDK 24+ prints "terminally deprecated method in sun.misc.Unsafe" warnings for Kafka's
# (and Maven's) Unsafe use; the flag that allows it silently does not exist before JDK 23.
unsafe_opt() {
  if [[ "${JAVA_MAJOR:-0}" -ge 24 ]]; then
    printf '%s' --sun-misc-unsafe-memory-access=allow
  fi
}

# Runs a Java main class on the Kafka classpath with quiet logging.
# kafka_java_argv fills KJ with the command line (for running it in the background).
kafka_java_argv() {
  KJ=(java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
  if [[ -n "$(unsafe_opt)" ]]; then KJ+=("$(unsafe_opt)"); fi
  KJ+=(-Dlog4j2.configurationFile="$KAFKA_DIR/log4j2-tools.properties" -cp "$LIBS_DIR/*:$HELPER_DIR" "$@")
}
kafka_java() {
  kafka_java_argv "$@"
  "${KJ[@]}"
}

write_server_properties() {
  local inst="$1" port="$2" cport=$(($2 + 1)) tmp
  tmp="$(mktemp "$inst/server.properties.XXXXXX")"
  cat >"$tmp" <<EOF
# Generated by deploy/local/kafka.sh; do not edit (rewritten on every start).
# Single-node KRaft: this process is both broker and controller.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$cport
listeners=PLAINTEXT://$HOST:$port,CONTROLLER://$HOST:$cport
advertised.listeners=PLAINTEXT://$HOST:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$inst/data

# Single node: every internal topic has one replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1

num.partitions=3
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
# Small dedupe buffer so the compacted topics' cleaner fits in a 256 MiB heap (default
# 128 MiB). Kafka demands strictly more than 1 MiB per cleaner thread, so 1048576 is rejected.
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=2097152
EOF
  mv "$tmp" "$inst/server.properties"
}

ensure_topics() {
  local label="$1" port="$2"
  ensure_helper
  kafka_java CreateTopics --bootstrap "$HOST:$port" --wait "$START_TIMEOUT_S" --label "$label" "${TOPICS[@]}" ||
    die "$label: topic listing/creation failed on $HOST:$port; see $STATE_DIR/kafka-${label#kafka-}/logs/server.log"
}

cmd_up() {
  local name="$1" port="${2:-}" label inst pidfile cport pid t0 elapsed_ms heap
  check_name "$name"
  label="kafka-$name"
  [[ -n "$port" ]] || port="$(default_port "$name")"
  [[ "$port" =~ ^[0-9]+$ ]] || die "$label: PORT missing or not a number (usage: kafka.sh up NAME PORT)"
  cport=$((port + 1))
  inst="$STATE_DIR/$label"
  pidfile="$inst/kafka.pid"
  find_java 21

  if pidfile_running "$pidfile"; then
    pid="$(head -n1 "$pidfile")"
    [[ "$(cat "$inst/port" 2>/dev/null)" == "$port" ]] ||
      die "$label: already running (pid $pid) on port $(cat "$inst/port" 2>/dev/null || echo '?'), not $port; run 'deploy/local/kafka.sh down $name' first"
    step "$label: already running (pid $pid) on $HOST:$port; reusing"
    ensure_libs >/dev/null
    ensure_topics "$label" "$port"
    return 0
  fi
  rm -f "$pidfile" "$pidfile.cmd"

  local p
  for p in "$port" "$cport"; do
    if port_open "$HOST" "$p"; then
      die "$label: port $HOST:$p is already in use by a process these scripts did not start; stop it (see: ss -ltnp 'sport = :$p') or choose another port"
    fi
  done

  ensure_libs
  mkdir -p "$inst/logs" "$inst/data"
  if [[ -f "$inst/port" && "$(cat "$inst/port")" != "$port" ]]; then
    die "$label: its data was created for port $(cat "$inst/port"); run 'deploy/local/kafka.sh reset $name' (deletes its data) or use port $(cat "$inst/port")"
  fi
  echo "$port" >"$inst/port"
  write_server_properties "$inst" "$port"

  if [[ ! -f "$inst/data/meta.properties" ]]; then
    kafka_java kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$inst/server.properties" >"$inst/logs/format.log" 2>&1 ||
      die "$label: formatting storage failed; see $inst/logs/format.log (or run 'deploy/local/kafka.sh reset $name')"
    step "$label: formatted storage in .local/$label/data (cluster id $CLUSTER_ID)"
  fi

  ensure_helper
  heap="${KAFKA_HEAP_OPTS:--Xms128m -Xmx256m}"
  mkdir -p "$CDS_DIR"
  t0=$(date +%s%N)
  # C1-only JIT and an automatically created class-data-sharing archive (kept outside the
  # instance dir so it survives reset) roughly halve the start time and trim RSS.
  # shellcheck disable=SC2086,SC2046 # heap, unsafe_opt and KAFKA_JVM_OPTS are lists of JVM flags
  start_bg "$label" "$pidfile" "$inst/logs/stdout.log" \
    java $heap -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:TieredStopAtLevel=1 \
    -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="$CDS_DIR/$label.jsa" \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true $(unsafe_opt) ${KAFKA_JVM_OPTS:-} \
    -Dkafka.logs.dir="$inst/logs" -Dlog4j2.configurationFile="$KAFKA_DIR/log4j2.properties" \
    -cp "$LIBS_DIR/*" kafka.Kafka "$inst/server.properties"
  pid="$STARTED_PID"

  # The topic helper retries the topic listing until the broker answers, so its JVM starts
  # while the broker boots. Meanwhile watch the broker so a crash is reported at once.
  local helper_pid helper_rc=0 helper_out="$inst/logs/create-topics.out" deadline
  kafka_java_argv CreateTopics --bootstrap "$HOST:$port" --wait "$START_TIMEOUT_S" --label "$label" "${TOPICS[@]}"
  "${KJ[@]}" >"$helper_out" 2>&1 & # a simple command: $! is the java process itself
  helper_pid=$!
  deadline=$((SECONDS + START_TIMEOUT_S + 10))
  while kill -0 "$helper_pid" 2>/dev/null; do
    if ! pid_alive "$pid"; then
      kill "$helper_pid" 2>/dev/null || true
      wait "$helper_pid" 2>/dev/null || true
      rm -f "$pidfile" "$pidfile.cmd"
      tail -n 20 "$inst/logs/server.log" "$inst/logs/stdout.log" >&2 2>/dev/null || true
      die "$label: broker exited during startup; see $inst/logs/server.log and stdout.log (a corrupt data dir is fixed by 'deploy/local/kafka.sh reset $name')"
    fi
    if ((SECONDS >= deadline)); then
      kill "$helper_pid" 2>/dev/null || true
      die "$label: no topic listing on $HOST:$port after ${START_TIMEOUT_S}s (broker pid $pid still running); see $inst/logs/server.log"
    fi
    sleep 0.2
  done
  wait "$helper_pid" || helper_rc=$?
  cat "$helper_out"
  ((helper_rc == 0)) || die "$label: topic listing/creation failed on $HOST:$port (broker pid $pid); see $inst/logs/server.log"
  port_open "$HOST" "$port" || die "$label: port $HOST:$port does not answer; see $inst/logs/server.log"
  elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
  step "$label: started (pid $pid) on $HOST:$port in $(awk -v ms="$elapsed_ms" 'BEGIN { printf "%.1f", ms / 1000 }')s incl. topics, controller $HOST:$cport, logs .local/$label/logs/server.log"
}

cmd_down() {
  local name="$1"
  check_name "$name"
  stop_pidfile "$STATE_DIR/kafka-$name/kafka.pid" "kafka-$name"
}

cmd_reset() {
  local name="$1" inst
  check_name "$name"
  inst="$STATE_DIR/kafka-$name"
  if [[ -f "$inst/kafka.pid" ]]; then
    stop_pidfile "$inst/kafka.pid" "kafka-$name"
  fi
  if [[ -d "$inst" ]]; then
    rm -rf "$inst"
    step "kafka-$name: reset (deleted .local/kafka-$name)"
  else
    step "kafka-$name: reset (nothing to delete)"
  fi
}

cmd_status() {
  local name="$1" inst
  check_name "$name"
  inst="$STATE_DIR/kafka-$name"
  if pidfile_running "$inst/kafka.pid"; then
    step "kafka-$name: running (pid $(head -n1 "$inst/kafka.pid")) on $HOST:$(cat "$inst/port")"
  else
    step "kafka-$name: not running"
    return 1
  fi
}

cmd_topics() {
  local name="$1" inst
  check_name "$name"
  inst="$STATE_DIR/kafka-$name"
  pidfile_running "$inst/kafka.pid" || die "kafka-$name: not running; start it with 'deploy/local/kafka.sh up $name'"
  find_java 21 >/dev/null
  ensure_helper
  kafka_java CreateTopics --bootstrap "$HOST:$(cat "$inst/port")" --describe
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    up) cmd_up "${1:-}" "${2:-}" ;;
    down) cmd_down "${1:-}" ;;
    reset) cmd_reset "${1:-}" ;;
    status) cmd_status "${1:-}" ;;
    topics) cmd_topics "${1:-}" ;;
    libs) find_java 21 && ensure_libs ;;
    tool)
      [[ -n "${1:-}" ]] || { usage >&2; exit 2; }
      find_java 21 >/dev/null
      ensure_libs >/dev/null
      ensure_helper
      kafka_java "$@"
      ;;
    -h | --help | help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
