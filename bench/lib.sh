# Sourced by the benchmark scripts that restart a service to time its start (bench/payment-path.sh's readiness
# rounds, bench/start-steps.sh), after deploy/local/lib.sh: one way to restart and time a start, one table of ports.

# Each service's HTTP port; its management port (health, metrics) is this + 100 (deploy/local/start).
declare -A PORT=([gateway]=8080 [merchant]=8081 [transaction]=8082 [subscription]=8083 [webhook]=8084 [reporting]=8085)

# restart_alone SERVICE START_LOG [NAME=VALUE ...]: stops SERVICE and starts it again alone through deploy/local/start
# (which starts only what is missing) with the given environment, its output in START_LOG, timed by
# bench/ready-time.py. Prints "SECONDS STARTED_IN OTHERS": seconds from the JVM's start until its readiness check
# answered 200 ("none" if not within 60 s), Quarkus' own "started in" from the service's log ("-" if absent) and the
# CPU the rest of the machine used meanwhile (% of a core). Returns deploy/local/start's status.
restart_alone() {
  local s="$1" start_log="$2" starter status=0 ready others started
  shift 2
  stop_pidfile "$STATE_DIR/pids/$s.pid" "$s-service" >/dev/null
  env "$@" "$LOCAL_DIR/start" --skip-build >"$start_log" 2>&1 &
  starter=$!
  # One light process times it (bench/ready-time.py says why not a bash loop of curl).
  read -r ready others < <(python3 "$BENCH_DIR/ready-time.py" "$STATE_DIR/pids/$s.pid" \
    "http://127.0.0.1:$((PORT[$s] + 100))/q/health/ready" 60)
  wait "$starter" || status=$?
  started=$(grep -o 'started in [0-9.]*s' "$STATE_DIR/logs/$s.log" | tail -n1 | grep -o '[0-9.]*' | head -n1 || true)
  echo "$ready ${started:--} $others"
  return "$status"
}
