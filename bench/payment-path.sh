#!/usr/bin/env bash
# The payment write path against what the database alone allows (issue #14), in ONE run on this machine:
#   1. pgbench baseline: in one transaction per call, the three rows a creation writes (transaction, payment request,
#      outbox event; realistic widths, the same indexes) into scratch copies of the tables (schema bench_scratch of the
#      transaction database, dropped afterwards), 16 clients; and beside it the single-row INSERT rate; the three
#      rows again right after the runs of 2 and 3, the baseline being the mean of the two readings;
#   2. wrk POST /transaction through the gateway (publishable key of the sandbox merchant, 16 connections);
#   3. the same straight to transaction-service with a minted identity token (like the gateway's), twice, then the
#      gateway path once more (gateway, direct, direct2, gateway2: the throughput ratio is judged on the four runs
#      together, so that a drift of the instance's speed over them falls on both paths alike, docs/decisions.md §133);
#      for 2 and 3 the CPU each process spent per creation (gateway, transaction-service, PostgreSQL) from /proc,
#      and the wait events of the database sessions sampled from pg_stat_activity during the gateway run;
#   0. before anything is opened: idle CPU of the six services over --idle seconds with nothing open (or as many open
#      as earlier runs left, reported), where transaction-service's payment watcher and expiry back off, once the JIT
#      compilers of the start are quiet; then (with --start) each service stopped and started again alone, timed
#      until ready, with the rest of the suite up and quiet (the target), and once more after the runs (reported);
#   3b. GET /transaction/{id} with the account's API key and X-MID through the gateway, and straight to
#      transaction-service with the identity token the gateway mints for it (warmed up until the compilers are quiet,
#      then gateway, direct, direct again, gateway again, judged like 3): p50/p99, throughput;
#   3c. the latency the gateway adds to ONE request: POST and GET with one connection, gateway and direct in turn, in
#      six rounds of 3 s (reported) and request by request with bench/one-connection.py (judged; under 16
#      connections the p50 is queueing for the two cores and restates the throughput ratio);
#   4. idle CPU of the six services over --idle seconds after the runs (Kafka and PostgreSQL separately), RSS of each;
#   5. the steady state: creations through the gateway at about half the rate of 2 for 180 s, each merchant's QR
#      lifetime 60 s, so that transactions expire as fast as they are created after the first minute: the creations' and
#      expiries' rates, how far expiry falls behind, transaction-service's old-generation growth; RSS of each service
#      again (the reading the table judges);
# and prints one table: figure, value, target, ratio, pass/fail.
#
# High-volume settings, as a high-volume merchant's account would have them (through configuration, nothing else):
# the gateway's per-key, per-address, per-publishable-key-and-address buckets and the per-account rate, and the
# quota of open transactions per merchant (every creation stays open until its QR expires). With --start the script
# starts the suite with them (deploy/local/start [--skip-build]) and stops it at the end; otherwise start it yourself
# with the variables of high_volume_env below.
#
# Run it under the machine's build lock (the machine is shared; the lock keeps it quiet while measuring):
#   bench/payment-path.sh --start [--skip-build] [--duration 12s] [--connections 16] [--idle 20] [--jfr] [--merchants N]
#   [--warmup-max 300]: the longest warm-up (rounds of 10 s per path, alternating, until the JIT compilers of the
#   gateway and transaction-service are quiet; see the warm-up below)
#   [--idle-drain 1200]: how long to wait, before the idle measurement that precedes the runs, for earlier runs' open
#   transactions to expire and their expiry events to drain (open for --run-lifetime, or for 15 minutes if made
#   otherwise; the figure names how many were still open; a run measured beside that expiry measures it too)
#   [--steady-seconds 180] [--steady-lifetime 60] [--steady-share 50]: the steady state of 5 (0 s leaves it out):
#   how long creations run, the merchants' QR lifetime meanwhile, their rate in % of the judged gateway run's
#   [--run-lifetime S]: the merchants' QR lifetime before the steady state (2 × --warmup-max + 900 s unless given), so
#   that the warm-up's transactions do not expire during the idle reading after the runs
#   [--idle-after-start 120]: the idle measurement before the runs begins no sooner than this many seconds after the
#   youngest of the six services started, past the start's one-off work (see section 0)
#   [--settle-max 120]: before and after the runs, each idle measurement waits until the JIT compilers of the six
#   services are quiet (together under 0.5% of a core over 5 s), at most this long; the table says how long it waited
# --merchants N spreads the creations over N merchants of the sandbox account (the bench merchant and N-1 more created
# for the run): through the gateway with one account-wide publishable key as pk_…:<merchant>, directly with one
# identity token per merchant; every request picks its merchant at random (bench/create-transaction.lua).
# Each run creates a fresh merchant (and its publishable key) in the sandbox account, so the open transactions of
# earlier runs (counted by the open-transaction quota on every creation) do not weigh on this one. --jfr records
# JFR on the gateway and transaction-service during both gateway runs (gateway, gateway2) and prints their hot methods,
# lock contention and allocation (by site and by class).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$BENCH_DIR/../deploy/local/lib.sh"
. "$BENCH_DIR/lib.sh"
find_java >/dev/null # jcmd and jfr (jfr view) of the JDK the services run on

duration=12s connections=16 idle=20 start=false skip_build="" jfr=false merchants=1 idle_drain=1200 warmup_max=300 settle_max=120
idle_after_start=120
steady_seconds=180 steady_lifetime=60 steady_share=50 run_lifetime=""
export ONE_ROUNDS=6 # one-connection rounds (section 3c), each path 3 s per round
export ONE_PAIRS=2000 # one-connection requests by request (section 3c), pairs per method
# The creation every request of this script makes (wrk's bench/create-transaction.lua reads it from BENCH_BODY):
# 25 USD in USDC on base
CREATION_BODY='{"amount":25,"amountCurrency":"USD","asset":"USDC","network":"base","referenceNumber":"bench-order"}'
while (($# > 0)); do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --idle) idle="$2"; shift 2 ;;
    --start) start=true; shift ;;
    --skip-build) skip_build=--skip-build; shift ;;
    --jfr) jfr=true; shift ;;
    --merchants) merchants="$2"; shift 2 ;;
    --idle-drain) idle_drain="$2"; shift 2 ;;
    --settle-max) settle_max="$2"; shift 2 ;;
    --idle-after-start) idle_after_start="$2"; shift 2 ;;
    --warmup-max) warmup_max="$2"; shift 2 ;;
    --steady-seconds) steady_seconds="$2"; shift 2 ;;
    --steady-lifetime) steady_lifetime="$2"; shift 2 ;;
    --steady-share) steady_share="$2"; shift 2 ;;
    --run-lifetime) run_lifetime="$2"; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done
# The bench merchants' QR lifetime until the steady state (see "the run's QR lifetime" below): longer than the two
# warm-ups at their longest and the 15 minutes of everything else before the idle reading after the runs.
run_lifetime=${run_lifetime:-$((2 * warmup_max + 900))}
((run_lifetime >= 60 && run_lifetime <= 86400)) || die "--run-lifetime must be 60..86400 s (a merchant's QR lifetime)"
[[ "$idle_after_start" =~ ^[0-9]+$ ]] || die "--idle-after-start must be a number of seconds"

high_volume_env=(
  RATE_LIMIT_KEY_CAPACITY=1000000 RATE_LIMIT_KEY_PER_SECOND=1000000
  RATE_LIMIT_ADDRESS_CAPACITY=1000000 RATE_LIMIT_ADDRESS_PER_SECOND=1000000
  RATE_LIMIT_PUBLISHABLE_ADDRESS_CAPACITY=1000000 RATE_LIMIT_PUBLISHABLE_ADDRESS_PER_SECOND=1000000
  # The account's rate: well above what two cores serve (under 3,000 GETs a second), but a rate, not "unlimited": the
  # open-transaction quota keeps a count for as long as this rate could not fill half the quota (§97).
  CRYPTOPAY_LIMITS_REQUEST_BURST=20000 CRYPTOPAY_LIMITS_REQUESTS_PER_SECOND=10000
  CRYPTOPAY_LIMITS_OPEN_TRANSACTIONS_PER_MERCHANT=10000000
)

for tool in wrk pgbench psql python3; do
  if ! command -v "$tool" >/dev/null; then
    [[ "$tool" == wrk ]] || die "$tool is missing"
    step "installing wrk (Debian package)"
    apt-get install -y -qq wrk >/dev/null || die "apt-get install wrk failed (run apt-get update first)"
  fi
done

out="$STATE_DIR/bench-payment-path"
# Emptied first: the table reads some files only when they exist (the readiness rounds with --start, the steady state),
# and an earlier run's would be read as this one's.
rm -rf "$out"
mkdir -p "$out"
if $start; then
  step "starting the suite with the high-volume settings: ${high_volume_env[*]}"
  # Everything this run started goes again at the end: services, and the Kafka and anvil deploy/local/up started.
  trap 'step "stopping what --start started (deploy/local/down)"; "$LOCAL_DIR/down" >"$out/down.log" 2>&1 || true' EXIT
  env "${high_volume_env[@]}" "$LOCAL_DIR/start" $skip_build >"$out/start.log" 2>&1 ||
    { tail -n 20 "$out/start.log"; die "deploy/local/start failed (see $out/start.log)"; }
fi
wait_http http://127.0.0.1:8180/q/health/ready 5 || die "the suite is not running: --start, or deploy/local/start"
"$LOCAL_DIR/sandbox-account" >/dev/null
sandbox() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$STATE_DIR/sandbox-account.json" "$1"; }
account=$(sandbox accountUUID) api_key=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["apiKey"]["generatedKey"])' "$STATE_DIR/sandbox-account.json")
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
SERVICES=(gateway merchant transaction subscription webhook reporting)
declare -A PID
for s in "${SERVICES[@]}"; do PID[$s]=$(head -n1 "$STATE_DIR/pids/$s.pid"); done

export PGPASSWORD=payments # LOCAL DEVELOPMENT credential of deploy/local/postgres.sh
PSQL=(psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -U payments -d transaction)

# --- CPU from /proc ------------------------------------------------------------------------------------------------
hz=$(getconf CLK_TCK)
ticks_of() { # pids...: utime+stime of the processes (and their reaped children), in clock ticks
  local total=0 p f
  for p in "$@"; do
    f=$(sed -E 's/^.*\) //' "/proc/$p/stat" 2>/dev/null) || continue
    read -r -a a <<<"$f"
    total=$((total + a[11] + a[12] + a[13] + a[14]))
  done
  echo "$total"
}
pg_pids() { pgrep -x postgres || true; }
# task_ticks PID: "thread-id thread-name ticks" (utime+stime) for each thread of the process, its name as /proc shows
# it with spaces as _ (the JIT's "C2 CompilerThre" is C2_CompilerThre)
task_ticks() {
  local t name f
  for t in /proc/"$1"/task/*; do
    name=$(tr ' ' '_' 2>/dev/null <"$t/comm") || continue
    f=$(sed -E 's/^.*\) //' "$t/stat" 2>/dev/null) || continue
    read -r -a a <<<"$f"
    echo "${t##*/} ${name:-?} $((a[11] + a[12]))"
  done
}
# thread_snapshot NAME: per thread of each service "service thread-id thread-name ticks" (pool numbers folded out of
# the names, so a pool's threads add up), to see which threads of a service spend the CPU. The difference of two
# snapshots is taken thread by thread (a thread that started in between counts from zero) and only then added up by
# name: pools start and end threads (Quarkus' executor after 30 s idle, the JIT's compiler threads as their queues
# shrink), and a pool's plain sum drops by all that an ended thread had ever spent.
thread_snapshot() {
  local s
  for s in "${SERVICES[@]}"; do
    task_ticks "${PID[$s]}" | sed -E "s/^/$s /; s/[-_#]?[0-9]+( [0-9]+)$/\1/; s/[-_#][0-9]+[-_]/-N-/g"
  done >"$out/threads-$1.txt"
}
kafka_pids() { head -n1 "$STATE_DIR/kafka-dev/kafka.pid" 2>/dev/null || true; }
# compiler_ticks REGEX PID...: "thread-id ticks" of each thread of the processes whose name matches REGEX (^C2_: the C2
# compiler threads; ^C[12]_: both compilers)
compiler_ticks() {
  local regex="$1" p
  shift
  for p in "$@"; do task_ticks "$p"; done | awk -v re="$regex" '$2 ~ re { print $1, $3 }'
}
# ticks_between BEFORE AFTER: the ticks the threads of AFTER (compiler_ticks' lines) spent since BEFORE, thread by
# thread; a thread new in AFTER counts from zero, one gone since BEFORE is not subtracted (see thread_snapshot)
ticks_between() {
  awk 'NR == FNR { before[$1] = $2; next } { total += $2 - before[$1] } END { print total + 0 }' \
    <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}
# settle_compilers: waits until the compiler threads of the six services together spend under 0.5% of a core over
# 5 s, at most --settle-max seconds; sets settle_seconds and settle_quiet (an idle figure is the steady state: a
# service's JIT compiler works for a minute or two after a start or after load, once, not for ever)
settle_compilers() {
  local started=$SECONDS j0 j1
  settle_quiet=false
  while ((SECONDS - started < settle_max)); do
    j0=$(compiler_ticks '^C[12]_' "${PID[@]}")
    sleep 5
    j1=$(compiler_ticks '^C[12]_' "${PID[@]}")
    if (($(ticks_between "$j0" "$j1") * 1000 * 200 < hz * 5000)); then # under 0.5% of a core over 5 s
      settle_quiet=true
      break
    fi
  done
  settle_seconds=$((SECONDS - started))
}
# cpu_snapshot NAME: one line per group "group ticks"
cpu_snapshot() {
  {
    for s in "${SERVICES[@]}"; do echo "$s $(ticks_of "${PID[$s]}")"; done
    # shellcheck disable=SC2046
    echo "postgres $(ticks_of $(pg_pids))"
    # shellcheck disable=SC2046
    echo "kafka $(ticks_of $(kafka_pids))"
    pg_by_database
  } >"$out/cpu-$1.txt"
}
# pg_by_database: "pg:DATABASE ticks" per database of the server, from the backends connected to it (pg_stat_activity);
# the server's own processes (checkpointer, WAL writer, autovacuum launcher, ...) are "pg:server". A backend that
# starts between two snapshots counts whole (its CPU all falls between them); one that ends is lost, as in the total.
pg_by_database() {
  local -A database=() sum=()
  local pid name
  while IFS='|' read -r pid name; do database[$pid]=${name:-server}; done \
    < <("${PSQL[@]}" -F '|' -c 'select pid, datname from pg_stat_activity' 2>/dev/null)
  for pid in $(pg_pids); do
    name=${database[$pid]:-server}
    sum[$name]=$((${sum[$name]:-0} + $(ticks_of "$pid")))
  done
  for name in "${!sum[@]}"; do echo "pg:$name ${sum[$name]}"; done
}
# cpu_delta FROM TO GROUP: CPU seconds spent by GROUP between the snapshots
cpu_delta() {
  python3 - "$out/cpu-$1.txt" "$out/cpu-$2.txt" "$3" "$hz" <<'PY'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
# a database with no backend in one of the snapshots has 0 there
print(max(0, int(b.get(sys.argv[3], 0)) - int(a.get(sys.argv[3], 0))) / int(sys.argv[4]))
PY
}

# readiness_round NAME (with --start only): each service in turn is stopped and started again alone with
# deploy/local/start (which starts only what is not running), and timed from the JVM's start (/proc) until its
# readiness check answers 200. Writes "service seconds quarkus-started-in others" to ready-NAME.txt, where others is
# the CPU the rest of the machine (everything but the starting JVM) used from the moment the JVM was seen until it was
# ready, in % of a core: a start on two cores is only as fast as what runs beside it lets it be.
readiness_round() {
  local s timed
  : >"$out/ready-$1.txt"
  for s in "${SERVICES[@]}"; do
    # The previous restart's JIT compilation and Kafka group rejoin would run beside this start: let them settle.
    sleep 15
    step "readiness ($1): $s-service started alone"
    # With the same settings as the suite's start: the runs that follow use this JVM.
    timed=$(restart_alone "$s" "$out/restart-$1-$s.log" "${high_volume_env[@]}") || true
    PID[$s]=$(head -n1 "$STATE_DIR/pids/$s.pid")
    echo "$s $timed" >>"$out/ready-$1.txt"
  done
}

# --- 0. idle with nothing open -------------------------------------------------------------------------------------
# Before this run opens anything (the payment watcher and expiry back off while no payment request awaits funds and
# no transaction is open, docs/decisions.md §74; the runs below leave thousands open for --run-lifetime). Open rows
# left by earlier runs are counted and reported: they keep the payment watcher at every second.
open_now() { "${PSQL[@]}" -c "select (select count(*) from payment_request where status = 0) || ' requests awaiting funds, ' || (select count(*) from transaction where status in (0, -3)) || ' transactions open'"; }
# A run started while the previous one's transactions are open otherwise measures everything (pgbench included) beside
# their expiry: run 27 of docs/performance.md did, with 75,000 expiring, and its baseline fell by a third. So it waits
# (at most --idle-drain) until they have expired, saying when the last one expires; a run right after another, on
# the same databases, may wait out that run's --run-lifetime (drop the databases to start afresh; docs/performance.md).
# Transactions expired so far: read around each idle measurement, whose figure is not idle if some expired during it
# (each expiry is an update, an outbox event and its consumers' work). With the 15-minute QR lifetime of the sandbox
# merchants, the warm-up's transactions expired during the measurement after the runs on slow instances (runs 130 and
# 131: 8,861 and 3,283 expiries); hence --run-lifetime, set on the bench merchants before anything is created.
expired_now() { "${PSQL[@]}" -c "select count(*) from transaction where status = -1"; }
last_expiry() { "${PSQL[@]}" -c "select coalesce(to_char(max(expiration) at time zone 'UTC', 'HH24:MI:SS') || ' UTC', '-') from payment_request where status = 0"; }
step "idle before the runs: waiting up to ${idle_drain}s until nothing is open ($(open_now) now; the last expires at $(last_expiry))"
drain_started=$SECONDS next_report=$((SECONDS + 60))
while ((SECONDS - drain_started < idle_drain)); do
  [[ "$(open_now)" == "0 requests awaiting funds, 0 transactions open" ]] && break
  if ((SECONDS >= next_report)); then
    step "idle before the runs: $(open_now); the last expires at $(last_expiry) (waited $((SECONDS - drain_started)) s of ${idle_drain})"
    next_report=$((SECONDS + 60))
  fi
  sleep 1
done
# The expiries' events then reach the consumers of webhook-, reporting- and subscription-service, and tens of thousands
# of them keep those services (and Kafka, PostgreSQL) busy for minutes after the last transaction expired: a run
# measured meanwhile shares the cores with that backlog (run 12 of docs/performance.md was). So wait, within the same
# --idle-drain, until the six services and Kafka together spend under 10% of a core over 5 s; at least 20 s.
sleep 20
drain_started=$SECONDS
while ((SECONDS - drain_started < idle_drain)); do
  # shellcheck disable=SC2046
  b0=$(ticks_of "${PID[@]}" $(kafka_pids))
  sleep 5
  # shellcheck disable=SC2046
  b1=$(ticks_of "${PID[@]}" $(kafka_pids))
  (((b1 - b0) * 1000 * 10 < $(getconf CLK_TCK) * 5000)) && break
done
# A start does some work once, a minute or so after it: the first run of each housekeeping job that then runs every 10
# minutes or every hour (the outbox pruner, payload retention, the idempotency sweep: `delayed = "1m"`), Micrometer's
# first look for new metrics of the Kafka clients (60 s after they open), the jobs that back off still on their way
# to their longest delay (30 s, docs/decisions.md §105), and the JIT compiling what those ran. A reading 40 to 60 s
# after the starts caught all of that (3.3% of a core against 1.8-2.3% in the minutes after it; docs/performance.md,
# sixty-sixth step); an idle figure is the suite at rest, so the measurement waits until the youngest service has run
# --idle-after-start seconds (the readings after the runs come long after every start).
quiet_after=$((SECONDS - drain_started + 20))
# youngest_age: seconds since the youngest of the six services' JVMs started
youngest_age() { for s in "${SERVICES[@]}"; do ps -o etimes= -p "${PID[$s]}"; done | sort -n | head -n1 | tr -d ' '; }
youngest=$(youngest_age)
if ((${youngest:-0} < idle_after_start)); then
  step "idle before the runs: the youngest service started ${youngest} s ago; waiting until ${idle_after_start} s"
  sleep $((idle_after_start - youngest))
fi
step "idle before the runs: the services were quiet after ${quiet_after} s; waiting until their JIT compilers are quiet (at most ${settle_max}s)"
settle_compilers
echo "$settle_seconds $settle_quiet" >"$out/settle-before.txt"
youngest=$(youngest_age)
echo "$youngest" >"$out/idle0-after-start.txt"
open_before=$(open_now)
step "idle before the runs ($open_before): $idle s"
expired0_0=$(expired_now)
cpu_snapshot idle0-0
thread_snapshot idle0-0
sleep "$idle"
cpu_snapshot idle0-1
thread_snapshot idle0-1
echo "$(($(expired_now) - expired0_0))" >"$out/expired-idle0.txt"
echo "$open_before" >"$out/open-before.txt"
# Readiness with the rest of the suite up and quiet (with --start only): the target's "started alone". Then the
# restarted services' compilers settle before the baseline is measured.
if $start; then
  readiness_round quiet
  settle_compilers
  step "readiness measured; compilers $($settle_quiet && echo quiet || echo 'still compiling') after ${settle_seconds}s"
fi

run_id=$(date +%Y%m%d%H%M%S)
merchant=$(curl -sS -X POST "http://127.0.0.1:8080/accounts/$account/merchants" -H "X-Api-Key: $api_key" \
  -H 'Content-Type: application/json' \
  -d "{\"name\":\"Bench Shop $run_id\",\"address1\":\"1 Example Street\",\"city\":\"Berlin\",\"region\":\"BE\",\"country\":\"DE\",\"externalMID\":\"bench-$run_id\"}" |
  json_field UUID) || die "creating the bench merchant failed"
publishable=$(curl -sS -X POST "http://127.0.0.1:8080/accounts/$account/keys?merchantUUID=$merchant" -H "X-Api-Key: $api_key" \
  -H 'Content-Type: application/json' -d '{"keyType":"publishable","name":"bench"}' | json_field generatedKey) ||
  die "creating the bench merchant's publishable key failed"
step "bench merchant $merchant (fresh for this run)"
# --merchants N: N-1 more merchants of the account, an account-wide publishable key, and the header files the
# wrk script picks from (BENCH_HEADERS).
gw_header="X-Publishable-Key: $publishable"
all_merchants=("$merchant")
printf '%s\t%s\n' "$merchant" "$gw_header" >"$out/merchant-pairs.txt"
if ((merchants > 1)); then
  step "creating $((merchants - 1)) more merchants of the sandbox account"
  for i in $(seq 2 "$merchants"); do
    all_merchants+=("$(curl -sS -X POST "http://127.0.0.1:8080/accounts/$account/merchants" -H "X-Api-Key: $api_key" \
      -H 'Content-Type: application/json' \
      -d "{\"name\":\"Bench Shop $run_id-$i\",\"address1\":\"1 Example Street\",\"city\":\"Berlin\",\"region\":\"BE\",\"country\":\"DE\",\"externalMID\":\"bench-$run_id-$i\"}" |
      json_field UUID)") || die "creating bench merchant $i failed"
  done
  printf '%s\n' "${all_merchants[@]}" >"$out/merchants.txt"
  account_publishable=$(curl -sS -X POST "http://127.0.0.1:8080/accounts/$account/keys" -H "X-Api-Key: $api_key" \
    -H 'Content-Type: application/json' -d '{"keyType":"publishable","name":"bench-all"}' | json_field generatedKey) ||
    die "creating the account-wide publishable key failed"
  for m in "${all_merchants[@]}"; do echo "X-Publishable-Key: $account_publishable:$m"; done >"$out/headers-gateway.txt"
  paste "$out/merchants.txt" "$out/headers-gateway.txt" >"$out/merchant-pairs.txt"
  gw_header="@$out/headers-gateway.txt"
fi
# The run's QR lifetime. With the sandbox's 15 minutes, the warm-up's transactions expired during the idle reading
# after the runs on slow instances, where the warm-ups take up to --warmup-max each (runs 130 and 131 of
# docs/performance.md: 8,861 and 3,283 expiries in it). So before anything is created each bench merchant gets
# --run-lifetime for USDC on base through the API (Update Merchant), as a merchant would set it. merchant-lifetime.py
# then creates through the gateway with each merchant's header until a creation carries that lifetime: every merchant
# is known to the gateway and transaction-service (from Kafka) before the runs start.
step "the run's QR lifetime: ${run_lifetime}s for USDC on base for the $merchants merchant(s)"
python3 "$BENCH_DIR/merchant-lifetime.py" http://127.0.0.1:8080 "$account" "$api_key" "$run_lifetime" \
  "$out/merchant-pairs.txt" "$CREATION_BODY" || die "the merchants did not get the run's QR lifetime"
echo "$run_lifetime" >"$out/run-lifetime.txt"
# A transaction of the bench merchant's own publishable key, which the GET runs read (the key reaches the gateway from
# Kafka; with --merchants N the lifetime above was checked with the account-wide key).
for _ in $(seq 1 100); do
  code=$(curl -s -o "$out/first-creation.json" -w '%{http_code}' -X POST http://127.0.0.1:8080/transaction -H "X-Publishable-Key: $publishable" \
    -H 'Content-Type: application/json' -d "$CREATION_BODY" || true)
  [[ "$code" == 201 ]] && break
  sleep 0.2
done
[[ "$code" == 201 ]] || die "the bench merchant's publishable key cannot create transactions (HTTP $code)"
first_tx=$(json_field transactionId <"$out/first-creation.json")


# --- 1. pgbench baseline -------------------------------------------------------------------------------------------
# The server as it is configured (deploy/local/postgres.sh reuses one found running). Without autovacuum nothing
# analyses the tables, and the planner reads whole tables for lookups by a list of ids (docs/performance.md, twelfth
# step): postgres.sh analyses the six databases then, as autovacuum keeps a production server's statistics.
step "postgres: $("${PSQL[@]}" -Atc "select string_agg(name || '=' || setting, ', ' order by name) from pg_settings
  where name in ('autovacuum', 'fsync', 'synchronous_commit', 'shared_buffers', 'wal_sync_method')")"
"$LOCAL_DIR/postgres.sh" analyze || die "deploy/local/postgres.sh analyze failed"
step "pgbench: scratch tables in schema bench_scratch of the transaction database"
"${PSQL[@]}" <<'SQL'
set client_min_messages = warning;
drop schema if exists bench_scratch cascade;
create schema bench_scratch;
create table bench_scratch.transaction (like public.transaction including all);
create table bench_scratch.payment_request (like public.payment_request including all);
create table bench_scratch.outbox_event (like public.outbox_event including defaults including constraints including indexes);
create sequence bench_scratch.outbox_seq owned by bench_scratch.outbox_event.seq;
alter table bench_scratch.outbox_event alter column seq set default nextval('bench_scratch.outbox_seq');
create table bench_scratch.single (id uuid primary key, amount numeric not null, note text not null, at timestamptz not null);
SQL
# The three rows of a creation with the widths the service writes (a 66-character address, a 230-character payment
# URI, a 1.3 kB event payload).
payload=$(python3 -c 'import json; print(json.dumps({"field%02d" % i: "x" * 40 for i in range(26)}))')
cat >"$out/creation.sql" <<SQL
\set amount random(1, 100000)
BEGIN;
INSERT INTO bench_scratch.transaction (id, account_id, merchant_id, external_mid, descriptor, reference_number, status,
  payment_status, currency, total_local, total_usd, received_usd, customer_fee_usd, fx_rate_to_usd, fx_rate_source,
  requested_asset, requested_network, required_fields, created_at, updated_at, expiration)
VALUES (gen_random_uuid(), '$account', '$merchant', 'sandbox-shop', 'Sandbox Shop', 'bench-order', 0, 0, 'USD',
  :amount / 100.0, :amount / 100.0, 0, 0, 1, 'provider', 'USDC', 'base', '[]', now(), now(), now() + interval '15 minutes');
INSERT INTO bench_scratch.payment_request (id, transaction_id, crypto_asset, crypto_network, address, xpub,
  derivation_index, expected_crypto, received_crypto, expected_usd, received_usd, crypto_fx_rate, customer_fee_usd,
  confirmation_count, status, qr_data, expiration, created_at)
VALUES (gen_random_uuid(), gen_random_uuid(), 'USDC', 'base', '0x' || md5(random()::text) || substr(md5(random()::text), 1, 8),
  'xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz',
  nextval('bench_scratch.outbox_seq'), :amount / 100.0, 0, :amount / 100.0, 0, 1, 0, 0, 0,
  'ethereum:0x036CbD53842c5426634e7929541eC2318f3dCF7e@84532/transfer?address=0x' || md5(random()::text) || '&uint256=' || :amount || '0000' || repeat('0', 120),
  now() + interval '15 minutes', now());
INSERT INTO bench_scratch.outbox_event (id, topic, message_key, event_type, payload)
VALUES (gen_random_uuid(), 'payments.transactions.v1', gen_random_uuid()::text, 'transaction.created', '$payload');
END;
SQL
cat >"$out/single.sql" <<'SQL'
INSERT INTO bench_scratch.single VALUES (gen_random_uuid(), random() * 1000, 'bench single-row insert', now());
SQL
# A CHECKPOINT right before each judged run: the baseline's readings, the four creation runs and the four GET runs. The
# server checkpoints every checkpoint_timeout (5 minutes here) and spreads the writing over most of it; after each
# checkpoint starts, the first change to each page writes the whole page into the WAL, so the run a checkpoint started
# in paid for it and the others did not (run 161: one started in the first gateway run, which wrote 0.71 full-page
# images per creation and made 228 creations a second, the three runs after it 364-482). Taken before each, every run
# starts just after one and none has one start within it (a timed checkpoint is due 5 minutes after the last),
# whichever path it measures (docs/decisions.md §134). What each took is in checkpoints.txt.
checkpoint_now() {
  "$LOCAL_DIR/postgres.sh" checkpoint >>"$out/checkpoints.txt" || die "deploy/local/postgres.sh checkpoint failed"
}
pgb() {
  checkpoint_now
  pgbench -n -h 127.0.0.1 -U payments -c "$connections" -j 2 -T "${duration%s}" -f "$1" transaction 2>&1
}
step "pgbench: the three rows of a creation in one transaction, $connections clients, $duration"
pgb "$out/creation.sql" >"$out/pgbench-creation.txt"
step "pgbench: single-row INSERT, $connections clients, $duration"
pgb "$out/single.sql" >"$out/pgbench-single.txt"
# The scratch tables stay until the baseline is measured again after the creation runs (below).

# --- 2./3. wrk POST /transaction ----------------------------------------------------------------------------------
# mint_direct_tokens: the identity tokens the direct runs send, as the gateway would mint them (one per merchant for
# the creations, one for the API key's GET), each valid 900 s (the gateway's own live 60 s and are signed anew as they
# age, gateway.identity-token-lifetime; a token that lasts a phase keeps the signing out of the direct runs). Minted
# again before each phase that uses them: on a slow instance the two warm-ups alone may take up to --warmup-max each,
# and tokens minted once at the start had expired by the GET's direct runs (run 130: every direct GET and
# one-connection request a 401). "mint_direct_tokens get" mints only the API key's token, all the GET phases send (the
# creations' are one per merchant: 200 signatures with --merchants 200).
mint_direct_tokens() {
  local m
  if [[ "${1:-}" != get ]]; then
    token=$(identity_token --role publishable --key-type publishable --account "$account" --merchant "$merchant")
    direct_header="Authorization: Bearer $token"
    if ((merchants > 1)); then
      for m in "${all_merchants[@]}"; do
        echo "Authorization: Bearer $(identity_token --role publishable --key-type publishable --account "$account" \
          --merchant "$m" --merchant-ref "$m")"
      done >"$out/headers-direct.txt"
      direct_header="@$out/headers-direct.txt"
    fi
  fi
  api_token=$(identity_token --role admin --key-type api --account "$account" --merchant "$merchant" \
    --merchant-ref "$merchant")
  get_direct=(http://127.0.0.1:8082 "Authorization: Bearer $api_token")
}
mint_direct_tokens
# wrk_post DURATION URL HEADER: POST /transaction with one header, or with "@file" one merchant's header at random per
# request from that file (--merchants)
# (WRK_CONNECTIONS overrides --connections: the one-connection latency runs below)
wrk_post() {
  local d="$1" url="$2" h="$3" c="${WRK_CONNECTIONS:-$connections}"
  local t=$((c < 2 ? c : 2))
  if [[ "$h" == @* ]]; then
    BENCH_BODY="$CREATION_BODY" BENCH_THREADS="$t" BENCH_HEADERS="${h#@}" wrk -t"$t" -c"$c" -d"$d" --latency \
      -s "$BENCH_DIR/create-transaction.lua" "$url/transaction"
  else
    BENCH_BODY="$CREATION_BODY" BENCH_THREADS="$t" wrk -t"$t" -c"$c" -d"$d" --latency \
      -s "$BENCH_DIR/create-transaction.lua" -H "$h" "$url/transaction"
  fi
}

sample_waits() { # samples the database sessions' wait events every 0.25 s until killed
  while :; do
    "${PSQL[@]}" -F ' ' -c "select coalesce(wait_event_type, 'CPU'), coalesce(wait_event, 'running'), left(regexp_replace(query, '\s+', ' ', 'g'), 90)
      from pg_stat_activity where datname = 'transaction' and state = 'active' and pid <> pg_backend_pid()" 2>/dev/null || true
    sleep 0.25
  done
}
# db_snapshot NAME: what each service's database did so far (commits; rows inserted, updated, deleted per table), to
# read per creation what the whole suite writes for it: the creation itself, the address index, the outbox relay's
# deletes, and the consumers of its events in the other services (their inbox rows, views, deliveries).
# Also what the server as a whole did (WAL records, full-page images and bytes; checkpoints) and the autovacuum and
# autoanalyze runs in each database: PostgreSQL's CPU per creation moved by a factor of two between runs of the same code
# with the same statements, and a checkpoint (full-page images) or autovacuum of the warm-up's rows during a measured
# run is what such a run shows here.
db_snapshot() {
  local s
  for s in "${SERVICES[@]}"; do
    psql -X -q -At -F ' ' -h 127.0.0.1 -U payments -d "$s" -c "select '$s', '*commits*', xact_commit, 0, 0
      from pg_stat_database where datname = current_database()
      union all select '$s', '*autovacuum*', coalesce(sum(autovacuum_count), 0), coalesce(sum(autoanalyze_count), 0), 0
      from pg_stat_user_tables
      union all select '$s', relname, n_tup_ins, n_tup_upd, n_tup_del from pg_stat_user_tables" 2>/dev/null || true
  done >"$out/db-$1.txt"
  psql -X -q -At -F ' ' -h 127.0.0.1 -U payments -d transaction -c "select 'server', '*wal*', wal_records, wal_fpi, wal_bytes
    from pg_stat_wal union all select 'server', '*checkpoints*', checkpoints_timed + checkpoints_req, 0, 0
    from pg_stat_bgwriter" >>"$out/db-$1.txt" 2>/dev/null || true
}
# gateway_metrics: the gateway's Prometheus text from its management port, as a scraper reads it.
gateway_metrics() { curl -s "http://127.0.0.1:$((PORT[gateway] + 100))/q/metrics"; }
# tx_metrics: transaction-service's Prometheus text, the same way.
tx_metrics() { curl -s --max-time 10 "http://127.0.0.1:$((PORT[transaction] + 100))/q/metrics"; }
# tx_full_gcs: "collections seconds" of transaction-service's full collections so far (Serial's "end of major GC"
# pauses, every cause summed): between two snapshots around a creation run, the pauses of that run (docs/decisions.md
# §125 keeps its old generation tight, at the cost of a full collection every few minutes under sustained load).
tx_full_gcs() {
  tx_metrics | awk '/^jvm_gc_pause_seconds_(count|sum)\{/ && /end of major GC/ { v[/_count\{/ ? "c" : "s"] += $NF }
    END { printf "%d %.6f\n", v["c"], v["s"] }'
}
# gateway_split NAME METHOD URI: the gateway's own timers so far (docs/decisions.md §108), as "requests seconds
# answers seconds": its requests of METHOD on the route template URI (http_server_requests_seconds) and
# transaction-service's answers to what it forwarded (gateway_upstream_requests_seconds), each summed over statuses and
# outcomes. Between two snapshots of a phase in which the gateway forwards only those requests, the difference of the
# two sums per request is the time a request spent in the gateway, beside the service's. Empty for a gateway without
# the upstream timer.
gateway_split() {
  gateway_metrics | awk -v m="method=\"$2\"" -v u="uri=\"$3\"" '
    /^http_server_requests_seconds_(count|sum)\{/ && index($0, m) && index($0, u) { v[/_count\{/ ? "rc" : "rs"] += $NF }
    /^gateway_upstream_requests_seconds_(count|sum)\{/ && index($0, "service=\"transaction\"") {
      v[/_count\{/ ? "ac" : "as"] += $NF; seen = 1 }
    END { if (seen) printf "%d %.6f %d %.6f\n", v["rc"], v["rs"], v["ac"], v["as"] }' >"$out/split-$1.txt" || true
}
# backlog: "unpublished / behind": the creations' events not yet handed to Kafka by the outbox relay, and the
# transactions reporting-service has not yet projected (its consumer's lag in transactions). What the runs before
# left to do is done during the next run, on the same two cores, and counts in its CPU per creation.
backlog() {
  local created projected
  created=$("${PSQL[@]}" -c 'select count(*) from public.transaction')
  # reporting-service's rows live in its active store schema (store_pointer, docs/decisions.md on the store rebuild)
  projected=$(psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -U payments -d reporting <<<"select format('select count(*)
    from %I.transaction_row', active_schema) from store_pointer where id = 1 \gexec") || projected=""
  [[ "$projected" =~ ^[0-9]+$ ]] || { echo "? / ?"; return; }
  echo "$("${PSQL[@]}" -c 'select count(*) from public.outbox_event where published_at is null') / $((created - projected))"
}
run_wrk() { # name url header (or @file, see wrk_post)
  local name="$1" url="$2" header="$3" sampler
  step "$name: POST /transaction for $duration with $connections connections"
  checkpoint_now
  backlog >"$out/backlog-$name.txt"
  sample_waits >"$out/waits-$name.txt" &
  sampler=$!
  [[ "$name" == gateway ]] && db_snapshot "$name-0"
  tx_full_gcs >"$out/fullgc-$name-0.txt"
  cpu_snapshot "$name-0"
  thread_snapshot "$name-0"
  [[ "$name" == gateway* ]] && gateway_split "$name-0" POST /transaction
  if $jfr && [[ "$name" == gateway* ]]; then
    for s in gateway transaction; do
      # deep stacks: Quarkus request stacks are longer than JFR's default 64 frames, which cuts off the callers
      jcmd "${PID[$s]}" JFR.configure stackdepth=512 >/dev/null 2>&1 || true
      jcmd "${PID[$s]}" JFR.start name="bench-$name" settings=profile "duration=${duration}" \
        filename="$out/$s-$name.jfr" >/dev/null
    done
  fi
  wrk_post "$duration" "$url" "$header" >"$out/wrk-$name.txt" 2>"$out/wrk-$name.err"
  cpu_snapshot "$name-1"
  thread_snapshot "$name-1"
  tx_full_gcs >"$out/fullgc-$name-1.txt"
  [[ "$name" == gateway* ]] && gateway_split "$name-1" POST /transaction
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  # 2 s more for the consumers of the run's last events and for the statistics, which backends report about once a
  # second: the rows per creation below include that tail (and any leftovers of the warm-up that were still draining).
  [[ "$name" == gateway ]] && { sleep 2; db_snapshot "$name-1"; }
  true
}
# Warm-up of both paths before either is measured, in turn, until the JIT compiler is done with them. A service that
# runs for days pays its JIT compilation once; a 12 s measurement right after the start pays it in every figure (with
# two 8 s warm-ups per path, the gateway's C2 compiler threads still spent 1.1 ms CPU per creation during the measured
# runs, more than its event loops and workers together, and transaction-service's 1.2 ms). Rounds of 10 s alternate
# the gateway path and the direct one; warming stops after the first two pairs of rounds in a row in which the C2
# compiler threads of both the gateway and transaction-service spent under 0.15 ms CPU per creation, or after
# --warmup-max seconds (default 300; the table then says the runs were measured still compiling). One quiet pair was
# not enough: C2 compiles in bursts, and in run 90 the gateway's compiler was at 0.17-0.34 ms per creation in three
# rounds, 0.06 in the fourth, where the warm-up stopped, and 0.34 again in the measured run.
post_round() { # gateway|direct: one 10 s round of creations; prints how many were made
  if [[ "$1" == gateway ]]; then
    wrk_post 10s http://127.0.0.1:8080 "$gw_header" 2>/dev/null | awk '/requests in/{print $1}'
  else
    wrk_post 10s http://127.0.0.1:8082 "$direct_header" 2>/dev/null | awk '/requests in/{print $1}'
  fi
}
# c2_round ROUND PATH: one round; prints "requests gateway-C2-ms-per-request transaction-C2-ms-per-request"
# A gateway round is scraped before and after, as every measured gateway run is (gateway_split) and as Prometheus
# scrapes a deployed gateway: the scrape is an HTTP request on the management port, through the same Netty and Vert.x
# code as the creations but on other branches and handler classes. Unscraped during its warm-up, the gateway's C2 code
# for that path met the first scrape, just before the judged run, with uncommon traps in 31 methods
# (HttpObjectDecoder.decode, VertxHandler.channelRead, the encoder, the router): interpreted again, recompiled during
# the judged run (run 97, docs/performance.md, forty-first step).
c2_round() {
  local g0 t0 n
  g0=$(compiler_ticks '^C2_' "${PID[gateway]}") t0=$(compiler_ticks '^C2_' "${PID[transaction]}")
  [[ "$2" == gateway ]] && gateway_metrics >/dev/null
  tx_full_gcs >/dev/null # transaction-service is scraped around every measured run too (run_wrk)
  n=$("$1" "$2")
  [[ "$2" == gateway ]] && gateway_metrics >/dev/null
  tx_full_gcs >/dev/null
  python3 -c "import sys; n=max(1,int(sys.argv[1] or 0)); h=int(sys.argv[4]); \
print(n, round(int(sys.argv[2])*1000/h/n, 4), round(int(sys.argv[3])*1000/h/n, 4))" "${n:-0}" \
    "$(ticks_between "$g0" "$(compiler_ticks '^C2_' "${PID[gateway]}")")" \
    "$(ticks_between "$t0" "$(compiler_ticks '^C2_' "${PID[transaction]}")")" "$hz"
}
# warm_until_quiet WHAT BOUND ROUND: rounds of ROUND gateway and ROUND direct in turn (ROUND runs one 10 s round of a
# path and prints how many requests it made) until, in two pairs in a row, the C2 compiler threads of the gateway
# (gateway path) and of transaction-service (both paths) spent under BOUND ms CPU per request, at most --warmup-max
# seconds; sets WARM_SECONDS and WARM_QUIET.
warm_until_quiet() {
  local what="$1" bound="$2" round="$3" started=$SECONDS quiet=0 gn gg gt dn dg dt
  WARM_QUIET=false
  while ((SECONDS - started < warmup_max)); do
    read -r gn gg gt < <(c2_round "$round" gateway)
    read -r dn dg dt < <(c2_round "$round" direct)
    step "$what warm-up round ($((SECONDS - started)) s): gateway path $gn requests, C2 ms per request gateway $gg, transaction $gt; direct $dn, transaction $dt"
    if python3 -c "import sys; sys.exit(0 if max(map(float, sys.argv[2:])) < float(sys.argv[1]) else 1)" "$bound" "$gg" "$gt" "$dt"; then
      quiet=$((quiet + 1))
    else
      quiet=0
    fi
    if ((quiet == 2)); then
      WARM_QUIET=true
      break
    fi
  done
  WARM_SECONDS=$((SECONDS - started))
}
warm_until_quiet creations 0.15 post_round
warm_seconds=$WARM_SECONDS warm_quiet=$WARM_QUIET
# Analyse again now that the warm-up has written tens of thousands of rows. A connection keeps the generic plan it made
# while a table was nearly empty until the table's statistics change: the foreign key's check of `transaction` on
# every payment request's insert kept a sequential scan in some connections (run 46: 15,172 scans read 717 million
# rows; docs/performance.md, seventeenth step). Autovacuum would have analysed the table after its first 50 rows; on
# a server without it the runs measured whichever plan each connection happened to make.
"$LOCAL_DIR/postgres.sh" analyze || die "deploy/local/postgres.sh analyze failed"
mint_direct_tokens
run_wrk gateway http://127.0.0.1:8080 "$gw_header"
run_wrk direct http://127.0.0.1:8082 "$direct_header"
# The direct path once more, then the gateway path once more: gateway, direct, direct, gateway (ABBA). One 12 s run of
# either path moves by about ten points of the ratio on a shared two-core instance, and its speed drifts between runs
# (docs/performance.md, sixty-seventh and sixty-eighth steps); the throughput ratio is judged on the two gateway runs
# against the two direct ones, where a drift that is steady over the four runs falls on both paths alike, and each
# pair's own ratio is printed beside it (docs/decisions.md §133). A gap between the two gateway runs is what the order
# of the runs (JIT compilation still going on in the first) costs, not the gateway.
run_wrk direct2 http://127.0.0.1:8082 "$direct_header"
run_wrk gateway2 http://127.0.0.1:8080 "$gw_header"
# The baseline once more, right after the runs it is the measure of: a shared two-core instance's speed drifts by a
# third within minutes (docs/performance.md, thirty-ninth step), and the first reading is some minutes of warm-up
# older. The table's baseline is the mean of the two readings, and it prints both.
step "pgbench: the three rows of a creation in one transaction again, after the creation runs, $connections clients, $duration"
"${PSQL[@]}" -c 'truncate bench_scratch.transaction, bench_scratch.payment_request, bench_scratch.outbox_event'
pgb "$out/creation.sql" >"$out/pgbench-creation-after.txt"
"${PSQL[@]}" -c 'drop schema bench_scratch cascade'

# --- 3b. the authenticated GET: GET /transaction/{id} with the account's API key and X-MID, through the gateway and
# straight to transaction-service with the identity token the gateway would mint for it. Warmed up like the creations
# (their warm-up does not reach the GET's own code: the API key with X-MID, the read, the answer): rounds of 10 s per
# path, alternating, until the C2 compiler threads of the gateway and of transaction-service spend under 0.03 ms CPU
# per GET in two pairs of rounds in a row (a fifth of the creations' bound: a GET costs about a fifth of a creation),
# at most --warmup-max seconds.
# With the later compile thresholds of deploy/local/start (docs/decisions.md §81) a 5 s warm-up, this script's
# earlier one, left the gateway compiling through the measured run. Then, as for the creations: gateway, direct,
# direct again, gateway again, the ratio judged on the four runs together.
mint_direct_tokens get
get_wrk() { # name url duration header... (WRK_CONNECTIONS as for wrk_post)
  local name="$1" url="$2" d="$3" c="${WRK_CONNECTIONS:-$connections}"
  local t=$((c < 2 ? c : 2))
  shift 3
  local headers=()
  for h in "$@"; do headers+=(-H "$h"); done
  wrk -t"$t" -c"$c" -d"$d" --latency "${headers[@]}" "$url/transaction/$first_tx" >"$out/wrk-$name.txt" 2>&1
}
get_gateway=(http://127.0.0.1:8080 "X-Api-Key: $api_key" "X-MID: $merchant")
get_round() { # gateway|direct: one 10 s round of GETs; prints how many were made
  if [[ "$1" == gateway ]]; then
    get_wrk get-warm-gateway "${get_gateway[0]}" 10s "${get_gateway[@]:1}"
  else
    get_wrk get-warm-direct "${get_direct[0]}" 10s "${get_direct[@]:1}"
  fi
  awk '/requests in/{print $1}' "$out/wrk-get-warm-$1.txt"
}
warm_until_quiet GET 0.03 get_round
get_warm_seconds=$WARM_SECONDS get_warm_quiet=$WARM_QUIET
echo "$get_warm_seconds $get_warm_quiet" >"$out/get-warm.txt"
step "GET /transaction/{id} with an API key: $duration each through the gateway, direct, direct again, through the gateway again"
mint_direct_tokens get
get_run() { # gateway|direct|direct2|gateway2: one judged GET run, after a checkpoint as every judged run (§134)
  local target=("${get_gateway[@]}")
  [[ "$1" == direct* ]] && target=("${get_direct[@]}")
  checkpoint_now
  get_wrk "get-$1" "${target[0]}" "$duration" "${target[@]:1}"
}
for run in gateway direct direct2 gateway2; do get_run "$run"; done

# --- 3c. what the gateway adds to one request: both paths, warm, with ONE connection (no request waits behind another).
# First six rounds of 3 s with wrk, gateway and direct in turn, reported as the median of the rounds' p50 differences;
# then request by request (below), which the table judges. A creation's latency is mostly its COMMIT, whose p50 drifts
# by a millisecond and more from one few-second window to the next: rounds of the same build differed by -0.05 to
# +4 ms, so the rounds measure that drift as much as the gateway. With 16 connections
# on two cores every request queues for a core behind the others, so the p50 of those runs is connections /
# throughput (Little's law) and the gateway's "adds at p50" there only restates the throughput ratio: 80% of the
# direct throughput is +25% at p50, about +8 ms here. The target "adds at most 1 ms at p50" is read with one
# connection, the throughput target on the loaded runs (docs/decisions.md §86).
step "one connection: POST /transaction and GET /transaction/{id}, gateway and direct in turn, $ONE_ROUNDS rounds of 3 s"
mint_direct_tokens
for round in $(seq 1 "$ONE_ROUNDS"); do
  WRK_CONNECTIONS=1 wrk_post 3s http://127.0.0.1:8080 "$gw_header" >"$out/wrk-one-post-gateway-$round.txt" 2>&1
  WRK_CONNECTIONS=1 wrk_post 3s http://127.0.0.1:8082 "$direct_header" >"$out/wrk-one-post-direct-$round.txt" 2>&1
  WRK_CONNECTIONS=1 get_wrk "one-get-gateway-$round" "${get_gateway[0]}" 3s "${get_gateway[@]:1}"
  WRK_CONNECTIONS=1 get_wrk "one-get-direct-$round" "${get_direct[0]}" 3s "${get_direct[@]:1}"
done

# The same request by request (bench/one-connection.py): the gateway's request and the direct one back to back for the
# same merchant, so the drift of the COMMIT's latency falls on both paths alike (docs/decisions.md §86).
if ((merchants > 1)); then
  one_post_gateway="$out/headers-gateway.txt" one_post_direct="$out/headers-direct.txt"
else
  one_post_gateway="$out/one-post-gateway.txt" one_post_direct="$out/one-post-direct.txt"
  echo "$gw_header" >"$one_post_gateway"
  echo "$direct_header" >"$one_post_direct"
fi
printf 'X-Api-Key: %s\tX-MID: %s\n' "$api_key" "$merchant" >"$out/one-get-gateway.txt"
echo "Authorization: Bearer $api_token" >"$out/one-get-direct.txt"
step "one connection, request by request: $ONE_PAIRS pairs of POST /transaction, then of GET /transaction/{id}, gateway and direct in turn"
gateway_split one-post-0 POST /transaction
python3 "$BENCH_DIR/one-connection.py" POST /transaction http://127.0.0.1:8080 "$one_post_gateway" \
  http://127.0.0.1:8082 "$one_post_direct" "$ONE_PAIRS" \
  "$CREATION_BODY" \
  >"$out/one-post-pairs.json" || die "the one-connection POST pairs failed"
gateway_split one-post-1 POST /transaction
gateway_split one-get-0 GET '/transaction/{transactionID}'
python3 "$BENCH_DIR/one-connection.py" GET "/transaction/$first_tx" http://127.0.0.1:8080 "$out/one-get-gateway.txt" \
  http://127.0.0.1:8082 "$out/one-get-direct.txt" "$ONE_PAIRS" >"$out/one-get-pairs.json" ||
  die "the one-connection GET pairs failed"
gateway_split one-get-1 GET '/transaction/{transactionID}'

if $jfr; then
  sleep 2 # the recordings end with the run
  for s in gateway transaction; do
    for run in gateway gateway2; do
      {
        jfr view --width 200 hot-methods "$out/$s-$run.jfr"
        jfr view --width 200 contention-by-site "$out/$s-$run.jfr"
        jfr view --width 200 allocation-by-site "$out/$s-$run.jfr"
        jfr view --width 200 allocation-by-class "$out/$s-$run.jfr"
      } >"$out/jfr-$s-$run.txt" 2>&1 || true
    done
  done
fi

# --- 4. idle CPU and memory --------------------------------------------------------------------------------------
# The idle figure is the suite's steady state: the JIT compilers keep compiling for a while what the runs made hot
# (and the consumers of the runs' events), 2% of a core and more across the six services 10 s after the runs, which a
# service pays once after a start, not for ever. So the measurement starts once the C1 and C2 compiler threads of the
# six services together spend under 0.5% of a core over 5 s (at most --settle-max seconds; the table says which).
step "idle: waiting 10 s for the work of the runs to drain (outbox, webhooks), then until the JIT compilers are quiet (at most ${settle_max}s)"
sleep 10
settle_compilers
step "idle: compilers $($settle_quiet && echo quiet || echo 'still compiling') after ${settle_seconds}s; measuring for $idle s"
expired_0=$(expired_now)
cpu_snapshot idle-0
thread_snapshot idle-0
sleep "$idle"
cpu_snapshot idle-1
thread_snapshot idle-1
echo "$(($(expired_now) - expired_0))" >"$out/expired-idle.txt"
for s in "${SERVICES[@]}"; do
  echo "$s $(awk '/^VmRSS:/ {print $2}' "/proc/${PID[$s]}/status")"
done >"$out/rss.txt"
# Each service's JVM options as its process has them (deploy/local/start's and any EXTRA_JVM_OPTS_<SERVICE>), printed
# with the table, so a run names what it measured; the AOT cache's path becomes whether one was used or recorded.
for s in "${SERVICES[@]}"; do
  echo "$s $(tr '\0' '\n' <"/proc/${PID[$s]}/cmdline" | grep -E '^-X' |
    sed -E 's/^-XX:AOTCache=.*/(AOT-cache-used)/; s/^-XX:AOTCacheOutput=.*/(AOT-cache-recorded)/; s/^-XX:SharedArchiveFile=.*/(CDS-archive)/' |
    tr '\n' ' ')"
done >"$out/jvm-options.txt"
# --- 5. the steady state: creations beside their own expiry -------------------------------------------------------
# Every run above starts with nothing open and measures creations alone. In production creations and expiries run side
# by side all the time (a payment request nobody pays expires at the end of its QR lifetime), and that costs memory the
# runs above cannot see: beside creations, an expiry batch's entities outlived young collections and were promoted, 92.5
# MiB of transaction-service's old generation in 240 s with batches of 200 (docs/performance.md, forty-fourth step,
# found by hand). So the merchants' QR lifetime for USDC on base is set to --steady-lifetime (60 s) through the API
# (Update Merchant; bench/merchant-lifetime.py waits until transaction-service creates with it), and creations run
# through the gateway for --steady-seconds (180 s) at --steady-share (50%) of the judged gateway run's rate (sent
# on a fixed schedule, bench/create-transaction.lua): after the first lifetime, transactions expire about as fast as
# they are created. Then it waits until every transaction due has expired (at most --steady-lifetime + 300 s). Reported:
# the creations' and the expiries' rates, the longest time between two answers (a stall: wrk counts an answer over 2 s
# late as a timeout and leaves it out of the latencies), how far expiry fell behind (transactions overdue and the oldest
# one's age, sampled every 5 s), and transaction-service's old generation (Serial's tenured generation, from its
# metrics) before and after: what its young collections promoted, unless a full collection ran in between (counted);
# beside it its code cache and metaspace (what the JIT compiled and the classes loaded for the new work). Then each
# service's RSS again: the reading after the whole benchmark, which the table judges (section 4's, before this phase, is
# printed beside it). It comes after section 4, not before: its own expiry would otherwise run into the idle reading.
# The warm-up's transactions, open for --run-lifetime, may expire during this phase on a slow instance, as expiries of
# earlier creations would in production. --steady-seconds 0 leaves the phase out (the table then judges section 4's
# RSS).
# tx_memory: "old-generation-bytes major-collections code-cache-bytes metaspace-bytes" of transaction-service (Serial's
# tenured generation; the code cache is one pool with -XX:-TieredCompilation, the sum of its segments otherwise)
tx_memory() {
  tx_metrics | awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ && /Tenured Gen/ { used = $NF }
    /^jvm_gc_pause_seconds_count\{/ && /end of major GC/ { major += $NF }
    /^jvm_memory_used_bytes\{/ && /area="nonheap"/ && /CodeCache|CodeHeap/ { code += $NF }
    /^jvm_memory_used_bytes\{/ && /area="nonheap"/ && /id="Metaspace"/ { meta = $NF }
    END { printf "%d %d %d %d\n", used, major, code, meta }'
}
overdue_now() { # "overdue oldest-seconds": open transactions past their expiration
  "${PSQL[@]}" -F ' ' -c "select count(*), coalesce(floor(extract(epoch from now() - min(expiration))), 0)::int
    from transaction where status in (0, -3) and expiration < now()"
}
if ((steady_seconds > 0)); then
  steady_rate=$(awk -v share="$steady_share" '/Requests\/sec:/ { printf "%d", $2 * share / 100 }' "$out/wrk-gateway.txt")
  ((steady_rate > 0)) || die "the gateway run made no creations to take a share of"
  step "steady state: a QR lifetime of ${steady_lifetime}s for USDC on base for the $merchants merchant(s)"
  python3 "$BENCH_DIR/merchant-lifetime.py" http://127.0.0.1:8080 "$account" "$api_key" "$steady_lifetime" \
    "$out/merchant-pairs.txt" "$CREATION_BODY" || die "the merchants did not get the steady state's QR lifetime"
  step "steady state: creations through the gateway for ${steady_seconds}s at $steady_rate/s ($steady_share% of the gateway run), each expiring ${steady_lifetime}s on"
  read -r old_used0 old_major0 code0 meta0 < <(tx_memory)
  expired_steady0=$(expired_now)
  steady_from=$("${PSQL[@]}" -c "select now()")
  (while :; do echo "$SECONDS $(overdue_now)"; sleep 5; done) >"$out/steady-overdue.txt" 2>/dev/null &
  steady_sampler=$!
  BENCH_RATE=$steady_rate wrk_post "${steady_seconds}s" http://127.0.0.1:8080 "$gw_header" \
    >"$out/wrk-steady.txt" 2>"$out/wrk-steady.err"
  steady_end=$SECONDS
  # The last creations expire a lifetime later; then expiry catches up with whatever it left overdue.
  while ((SECONDS - steady_end < steady_lifetime + 300)); do
    ((SECONDS - steady_end > steady_lifetime)) && [[ "$(overdue_now)" == "0 0" ]] && break
    sleep 2
  done
  steady_catchup=$((SECONDS - steady_end - steady_lifetime))
  read -r overdue_left _ < <(overdue_now)
  kill "$steady_sampler" 2>/dev/null || true
  wait "$steady_sampler" 2>/dev/null || true
  read -r old_used1 old_major1 code1 meta1 < <(tx_memory)
  expired_own=$("${PSQL[@]}" -c "select count(*) from transaction where status = -1 and created_at >= '$steady_from'")
  # one "name value" a line, for the table
  printf '%s %s\n' used0 "$old_used0" major0 "$old_major0" used1 "$old_used1" major1 "$old_major1" \
    code0 "$code0" code1 "$code1" meta0 "$meta0" meta1 "$meta1" expired_all "$(($(expired_now) - expired_steady0))" \
    expired_own "$expired_own" catchup "$steady_catchup" overdue_left "$overdue_left" aim "$steady_rate" \
    share "$steady_share" seconds "$steady_seconds" lifetime "$steady_lifetime" >"$out/steady.txt"
  step "steady state: expiry caught up $steady_catchup s after the last creation's lifetime"
  for s in "${SERVICES[@]}"; do
    echo "$s $(awk '/^VmRSS:/ {print $2}' "/proc/${PID[$s]}/status")"
  done >"$out/rss-steady.txt"
fi

# Readiness once more after the runs (with --start only), now beside whatever the runs left running: the expiry of
# their transactions (a --run-lifetime or --steady-lifetime after creation), and the events of that expiry in webhook-,
# reporting- and subscription-service. Reported with the CPU the rest of the machine used meanwhile, not judged.
if $start; then
  readiness_round after
fi
# The run of issued-but-unfunded address indexes (docs/decisions.md §57) the runs above left behind.
curl -s --max-time 10 http://127.0.0.1:8182/q/metrics | grep '^cryptopay_address_unfunded_run' >"$out/address-gap.txt" || true

# --- The table ---------------------------------------------------------------------------------------------------
{
  for g in "${SERVICES[@]}" postgres kafka $(awk '$1 ~ /^pg:/ {print $1}' "$out"/cpu-gateway-[01].txt | sort -u); do
    echo "cpu gateway $g $(cpu_delta gateway-0 gateway-1 "$g")"
    echo "cpu direct $g $(cpu_delta direct-0 direct-1 "$g")"
    echo "cpu direct2 $g $(cpu_delta direct2-0 direct2-1 "$g")"
    echo "cpu gateway2 $g $(cpu_delta gateway2-0 gateway2-1 "$g")"
    echo "cpu idle $g $(cpu_delta idle-0 idle-1 "$g")"
    echo "cpu idle0 $g $(cpu_delta idle0-0 idle0-1 "$g")"
  done
} >"$out/cpu.txt"
python3 - "$out" "$idle" "$connections" "$duration" "$merchants" "$warm_seconds" "$warm_quiet" "$settle_seconds" "$settle_quiet" <<'PY'
import collections, json, math, os, re, statistics, sys
ONE_ROUNDS = int(os.environ["ONE_ROUNDS"])
out, idle, connections, duration, merchants = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
warm_seconds, warm_quiet = sys.argv[6], sys.argv[7] == "true"
settle_seconds, settle_quiet = sys.argv[8], sys.argv[9] == "true"

hz = int(os.sysconf("SC_CLK_TCK"))

def threads(run):
    """CPU ticks per (service, thread name) spent between the snapshots {run}-0 and {run}-1, taken thread by thread
    (a thread started in between counts from zero) and then added up by name (thread_snapshot says why)."""
    def snapshot(part):
        return {(s, tid): (n, int(ticks)) for s, tid, n, ticks in
                (line.split() for line in open(f"{out}/threads-{run}-{part}.txt"))}
    before, after = snapshot("0"), snapshot("1")
    t = collections.Counter()
    for key, (n, ticks) in after.items():
        t[(key[0], n)] += ticks - before.get(key, (n, 0))[1]
    return t

def pgbench(name):
    text = open(f"{out}/pgbench-{name}.txt").read()
    m = re.search(r"tps = ([\d.]+)", text)
    if not m:
        sys.exit(f"pgbench {name} failed:\n{text}")
    return float(m.group(1))

def wrk(name):
    text = open(f"{out}/wrk-{name}.txt").read()
    def ms(label):
        m = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\b", text, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    total = int(re.search(r"(\d+) requests in", text).group(1))
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors += sum(map(int, m.groups())) if m else 0
    return dict(p50=ms("50"), p99=ms("99"), rps=rps, total=total, errors=errors)

cpu = collections.defaultdict(dict)
for line in open(f"{out}/cpu.txt"):
    _, run, group, seconds = line.split()
    cpu[run][group] = float(seconds)
rss = {l.split()[0]: int(l.split()[1]) / 1024 for l in open(f"{out}/rss.txt")}

# The baseline: the mean of the reading before the warm-up and the one right after the creation runs.
base3_before, base3_after, base1 = pgbench("creation"), pgbench("creation-after"), pgbench("single")
base3 = (base3_before + base3_after) / 2
# The four creation runs in the order they ran (gateway, direct, direct again, gateway again: ABBA, §133).
creation_runs = {run: wrk(run) for run in ("gateway", "direct", "direct2", "gateway2")}
gw, direct, direct2, gw2 = creation_runs.values()
rows = []
def row(figure, value, target, ratio, ok):
    rows.append((figure, value, target, ratio, "pass" if ok else "FAIL") if ok is not None else (figure, value, target, ratio, ""))
def rounded_down(x, digits):
    """x to `digits` decimals, rounded down: a figure just short of its target never reads as the target."""
    return f"{math.floor(x * 10 ** digits + 1e-9) / 10 ** digits:.{digits}f}"
def share(part, whole):
    """part / whole in % to one decimal, rounded down (run 156's GET, 1,957 against 2,450 a second, had printed as 80%
    beside its FAIL)."""
    return f"{rounded_down(part / whole * 100, 1)}%"
def ratio_rows(label, g1, d1, d2, g2):
    """The throughput ratio of gateway, direct, direct again, gateway again (ABBA): judged on the four runs together,
    the two gateway runs against the two direct ones (docs/decisions.md §133); each pair's own ratio reported."""
    pooled_g, pooled_d = g1["rps"] + g2["rps"], d1["rps"] + d2["rps"]
    row(f"{label}throughput / direct, the four runs together (gateway + again) / (direct + direct again)",
        share(pooled_g, pooled_d), ">= 80%", rounded_down(pooled_g / pooled_d / 0.8, 2), pooled_g >= 0.8 * pooled_d)
    row(f"{label}throughput / direct, each pair: gateway / direct; again / direct again",
        f"{share(g1['rps'], d1['rps'])}; {share(g2['rps'], d2['rps'])}", "(reported)", "-", None)

row("warm-up before the runs, s (until the C2 compilers of gateway and transaction < 0.15 ms/creation, twice in a row)",
    f"{warm_seconds} ({'quiet' if warm_quiet else 'STILL COMPILING: --warmup-max reached'})", "-", "-", None)
row("pgbench 3-insert creation tx/s (baseline: mean of before the warm-up / after the creation runs)",
    f"{base3:,.0f} ({base3_before:,.0f} / {base3_after:,.0f})", "-", "-", None)
row("pgbench single-row INSERT/s", f"{base1:,.0f}", "-", "-", None)
row("gateway POST /transaction /s", f"{gw['rps']:,.0f}", f">= {0.2*base3:,.0f} (20% of baseline)",
    f"{gw['rps']/base3:.1%}", gw["rps"] >= 0.2 * base3)
row("gateway POST /transaction p50 ms", f"{gw['p50']:.1f}", "-", "-", None)
row("gateway POST /transaction p99 ms", f"{gw['p99']:.1f}", "< 100", f"{gw['p99']/100:.2f}", gw["p99"] < 100)
row("gateway POST /transaction errors; again", f"{gw['errors']}; {gw2['errors']}", "0", "-",
    gw["errors"] + gw2["errors"] == 0)
row("direct POST /transaction /s; again", f"{direct['rps']:,.0f}; {direct2['rps']:,.0f}", "-",
    f"{direct['rps']/base3:.1%}; {direct2['rps']/base3:.1%} of baseline", None)
row("direct POST /transaction p50 / p99 ms; again", f"{direct['p50']:.1f} / {direct['p99']:.1f}; "
    f"{direct2['p50']:.1f} / {direct2['p99']:.1f}", "-", "-", None)
row("direct POST /transaction errors; again", f"{direct['errors']}; {direct2['errors']}", "0", "-",
    direct["errors"] + direct2["errors"] == 0)
row("gateway adds at p50 under load (ms; queueing, follows the throughput ratio: see one connection)",
    f"{gw['p50']-direct['p50']:.2f}", "(reported)", "-", None)
def again(label, again_run, direct_run, digits):
    """The rows of the gateway run measured again after the direct runs (what the order of the runs costs)."""
    a, d = again_run, direct_run
    row(f"{label}again after the direct runs /s, p50 / p99 ms", f"{a['rps']:,.0f}, {a['p50']:.{digits}f} / {a['p99']:.{digits}f}",
        "-", "-", None)
    row(f"{label}again: adds at p50 under load (ms, against direct again)", f"{a['p50']-d['p50']:.2f}", "(reported)", "-",
        None)
again("gateway ", gw2, direct2, 1)
ratio_rows("gateway ", gw, direct, direct2, gw2)
def in_gateway(name):
    """Mean ms a request spent in the gateway over a phase (gateway_split), or None without the upstream timer."""
    try:
        # the answers' count (third field) stays in the file for a reader: a client that hung up is not timed
        r0, s0, _, t0 = (float(x) for x in open(f"{out}/split-{name}-0.txt").read().split())
        r1, s1, _, t1 = (float(x) for x in open(f"{out}/split-{name}-1.txt").read().split())
    except (OSError, ValueError):
        return None
    return ((s1 - s0) - (t1 - t0)) / max(1, r1 - r0) * 1000 if r1 > r0 else None
def ms_or_dash(value):
    return "-" if value is None else f"{value:.2f}"
row("time a creation spent in the gateway, mean ms (its request time minus the service's answer, decisions §108): "
    "gateway run / again", f"{ms_or_dash(in_gateway('gateway'))} / {ms_or_dash(in_gateway('gateway2'))}",
    "(reported)", "-", None)
for run, r in creation_runs.items():
    for group in ("gateway", "transaction", "postgres"):
        if run.startswith("direct") and group == "gateway":
            continue
        per = cpu[run][group] / max(1, r["total"]) * 1000
        row(f"CPU per creation ({run} run): {group} ms", f"{per:.2f}", "-", "-", None)
# The rest of the suite's CPU for a creation: the services that consume its event, Kafka, and PostgreSQL's by the
# database its backends serve (pg:server is the server's own processes: WAL writer, checkpointer, ...).
def per_creation(run, r):
    return lambda group: cpu[run].get(group, 0) / max(1, r["total"]) * 1000
per_gw = per_creation("gateway", gw)
row("CPU per creation (gateway run; again): subscription / webhook / reporting / merchant / Kafka ms",
    "; ".join(" / ".join(f"{per(g):.2f}" for g in ("subscription", "webhook", "reporting", "merchant", "kafka"))
              for per in (per_gw, per_creation("gateway2", gw2))), "-", "-", None)
def full_gcs(run):
    """transaction-service's full collections during a creation run and their pauses in ms, or None unread."""
    try:
        (c0, s0), (c1, s1) = ([float(x) for x in open(f"{out}/fullgc-{run}-{i}.txt").read().split()] for i in (0, 1))
    except (OSError, ValueError):
        return None
    return int(c1 - c0), (s1 - s0) * 1000
gcs = [full_gcs(run) for run in creation_runs]
row("transaction-service full collections during the creation runs (gateway / direct / direct again / again), their "
    "pauses ms",
    " / ".join("?" if g is None else str(g[0]) for g in gcs) + ", "
    + " / ".join("?" if g is None else f"{g[1]:.0f}" for g in gcs), "(reported)", "-", None)
row("backlog when each creation run started (gateway, direct, direct again, again): outbox events unpublished / "
    "transactions not yet in reporting",
    ", ".join(open(f"{out}/backlog-{run}.txt").read().strip() for run in creation_runs),
    "(reported)", "-", None)
databases = sorted((g for g in cpu["gateway"] if g.startswith("pg:")), key=per_gw, reverse=True)
row("CPU per creation (gateway run): PostgreSQL by database ms",
    ", ".join(f"{g[3:]} {per_gw(g):.2f}" for g in databases if per_gw(g) >= 0.005) or "-", "-", "-", None)
get_warm_seconds, get_warm_quiet = open(f"{out}/get-warm.txt").read().split()
row("GET warm-up, s (until the C2 compilers of gateway and transaction < 0.03 ms/GET, twice in a row)",
    f"{get_warm_seconds} ({'quiet' if get_warm_quiet == 'true' else 'STILL COMPILING: --warmup-max reached'})", "-", "-",
    None)
gg, gd, gd2 = wrk("get-gateway"), wrk("get-direct"), wrk("get-direct2")
row("GET /transaction/{id} (API key) gateway /s, p50 / p99 ms", f"{gg['rps']:,.0f}, {gg['p50']:.2f} / {gg['p99']:.2f}",
    "-", "-", None)
row("GET /transaction/{id} (API key) direct /s, p50 / p99 ms; again", f"{gd['rps']:,.0f}, {gd['p50']:.2f} / "
    f"{gd['p99']:.2f}; {gd2['rps']:,.0f}, {gd2['p50']:.2f} / {gd2['p99']:.2f}", "-", "-", None)
gg2 = wrk("get-gateway2")
row("GET: errors gateway / direct / direct again / gateway again",
    f"{gg['errors']} / {gd['errors']} / {gd2['errors']} / {gg2['errors']}", "0", "-",
    gg["errors"] + gd["errors"] + gd2["errors"] + gg2["errors"] == 0)
row("GET: gateway adds at p50 under load (ms)", f"{gg['p50']-gd['p50']:.2f}", "(reported)", "-", None)
again("GET: gateway ", gg2, gd2, 2)
ratio_rows("GET: gateway ", gg, gd, gd2, gg2)
# One connection (section 3c): the gateway's own latency, the median of the rounds' p50 differences.
for what, label in (("post", "POST /transaction"), ("get", "GET /transaction/{id}")):
    rounds = [(wrk(f"one-{what}-gateway-{r}"), wrk(f"one-{what}-direct-{r}")) for r in range(1, ONE_ROUNDS + 1)]
    added = sorted(g["p50"] - d["p50"] for g, d in rounds)
    median = statistics.median(added)
    g1, d1 = rounds[-1]
    row(f"one connection, {label}: p50 gateway / direct ms (last round)", f"{g1['p50']:.2f} / {d1['p50']:.2f}", "-",
        "-", None)
    row(f"one connection, {label}: gateway adds at p50, median of {len(added)} rounds (ms; rounds "
        f"{', '.join(f'{a:.2f}' for a in added)})", f"{median:.2f}", "(reported: judged request by request)", "-",
        None)
    row(f"one connection, {label}: errors", f"{sum(g['errors'] + d['errors'] for g, d in rounds)}", "0", "-",
        sum(g["errors"] + d["errors"] for g, d in rounds) == 0)
    pairs = json.load(open(f"{out}/one-{what}-pairs.json"))
    row(f"one connection, {label}, request by request ({pairs['pairs']} pairs): p50 gateway / direct ms "
        f"(median of the pairs' differences {pairs['median_pair_difference']:.2f})",
        f"{pairs['p50_gateway']:.2f} / {pairs['p50_direct']:.2f}", "-", "-", None)
    # to the microsecond bench/one-connection.py gives: run 160's POST, 1.002 ms, read "1.00" beside its FAIL
    row(f"one connection, {label}, request by request: gateway adds at p50 (ms)", f"{pairs['adds_p50']:.3f}", "<= 1",
        "-", pairs["adds_p50"] <= 1)
    row(f"one connection, {label}, request by request: errors", f"{pairs['errors']}", "0", "-", pairs["errors"] == 0)
    row(f"one connection, {label}, request by request: time in the gateway, mean ms (decisions §108)",
        ms_or_dash(in_gateway(f"one-{what}")), "(reported)", "-", None)
services = ("gateway", "merchant", "transaction", "subscription", "webhook", "reporting")
idle0_six = sum(cpu["idle0"][s] for s in services) / idle
open_before = open(f"{out}/open-before.txt").read().strip()
settle0_seconds, settle0_quiet = open(f"{out}/settle-before.txt").read().split()
row("settle before the idle measurement before the runs, s (until the JIT compilers of the six services < 0.5% of a core)",
    f"{settle0_seconds} ({'quiet' if settle0_quiet == 'true' else 'STILL COMPILING: --settle-max reached'})", "-", "-", None)
idle0_after_start = open(f"{out}/idle0-after-start.txt").read().strip()
row(f"idle CPU before the runs ({open_before}; from {idle0_after_start} s after the youngest service's start), "
    "six services (% of a core)", f"{100*idle0_six:.1f}", "< 3",
    f"{idle0_six/0.03:.2f}", idle0_six < 0.03)
expired_idle0 = int(open(f"{out}/expired-idle0.txt").read())
row("  transactions that expired during it (work, not idle, when not 0)", f"{expired_idle0}", "(reported)", "-", None)
for s in services:
    row(f"  idle CPU before the runs {s} (% of a core)", f"{100*cpu['idle0'][s]/idle:.1f}", "-", "-", None)
row("idle CPU before the runs Kafka / PostgreSQL (% of a core)",
    f"{100*cpu['idle0']['kafka']/idle:.1f} / {100*cpu['idle0']['postgres']/idle:.1f}", "(reported)", "-", None)
row("settle before the idle measurement, s (until the JIT compilers of the six services < 0.5% of a core)",
    f"{settle_seconds} ({'quiet' if settle_quiet else 'STILL COMPILING: --settle-max reached'})", "-", "-", None)
idle_six = sum(cpu["idle"][s] for s in services) / idle
row("idle CPU, six services together (% of a core)", f"{100*idle_six:.1f}", "< 3", f"{idle_six/0.03:.2f}", idle_six < 0.03)
expired_idle = int(open(f"{out}/expired-idle.txt").read())
run_lifetime = open(f"{out}/run-lifetime.txt").read().strip()
row(f"  transactions that expired during it (work, not idle, when not 0: the warm-up's or the runs', {run_lifetime} s on)",
    f"{expired_idle}", "(reported)", "-", None)
def jit_share(run):
    """Share of a core the six services' C1 and C2 compiler threads spent during an idle measurement."""
    return sum(v for (_, n), v in threads(run).items() if n.startswith(("C1_", "C2_"))) / hz / idle
jit_idle = jit_share("idle")
row("  of which JIT compiler threads (C1, C2), six services (% of a core)", f"{100*jit_idle:.1f}", "(reported)",
    "-", None)
for s in services:
    row(f"  idle CPU {s} (% of a core)", f"{100*cpu['idle'][s]/idle:.1f}", "-", "-", None)
row("idle CPU Kafka (% of a core)", f"{100*cpu['idle']['kafka']/idle:.1f}", "(reported)", "-", None)
row("idle CPU PostgreSQL (% of a core)", f"{100*cpu['idle']['postgres']/idle:.1f}", "(reported)", "-", None)
if os.path.exists(f"{out}/steady.txt"):
    sv = {name: int(value) for name, value in (line.split() for line in open(f"{out}/steady.txt"))}
    st = wrk("steady")
    samples = [tuple(map(int, l.split()[1:])) for l in open(f"{out}/steady-overdue.txt") if len(l.split()) == 3]
    label = f"steady state ({sv['seconds']} s of creations, each expiring {sv['lifetime']} s on)"
    row(f"{label}: creations through the gateway /s (aimed at {sv['aim']}, {sv['share']}% of the gateway run), p99 ms",
        f"{st['rps']:,.0f}, {st['p99']:.1f}", "(reported)", "-", None)
    row(f"{label}: errors", f"{st['errors']}", "0", "-", st["errors"] == 0)
    gap = re.search(r"Longest gap between answers: (\d+) ms, ended (\S+) UTC", open(f"{out}/wrk-steady.txt").read())
    row(f"{label}: longest time between two answers on a wrk thread, ms (when it ended)",
        f"{gap.group(1)} ({gap.group(2)} UTC)" if gap else "-", "(reported)", "-", None)
    row(f"{label}: expired, its own of its creations (all, earlier runs' included)",
        f"{sv['expired_own']:,} of {st['total']:,} ({sv['expired_all']:,})", "(reported)", "-", None)
    row(f"{label}: expiry behind, most transactions overdue / oldest s (every 5 s)",
        f"{max((c for c, _ in samples), default=0):,} / {max((o for _, o in samples), default=0)}", "(reported)", "-",
        None)
    row(f"{label}: expiry caught up, s after the last creation's lifetime",
        f"{sv['catchup']}" if sv["overdue_left"] == 0 else f"NOT after {sv['catchup']} ({sv['overdue_left']:,} overdue)",
        "(reported)", "-",
        None)
    row(f"{label}: transaction-service old generation MiB before / after (full collections between)",
        f"{sv['used0'] / 2**20:.1f} / {sv['used1'] / 2**20:.1f} ({sv['major1'] - sv['major0']})", "(reported)", "-", None)
    row(f"{label}: transaction-service code cache / metaspace MiB before / after",
        f"{sv['code0'] / 2**20:.1f} / {sv['code1'] / 2**20:.1f}, {sv['meta0'] / 2**20:.1f} / {sv['meta1'] / 2**20:.1f}",
        "(reported)", "-",
        None)
# The RSS after the whole benchmark is judged: after the steady state when it ran, else after the runs.
rss_steady = ({l.split()[0]: int(l.split()[1]) / 1024 for l in open(f"{out}/rss-steady.txt")}
              if os.path.exists(f"{out}/rss-steady.txt") else None)
for s in services:
    if rss_steady:
        row(f"RSS {s} MiB after the runs (before the steady state)", f"{rss[s]:.0f}", "(reported)", "-", None)
    last = rss_steady or rss
    row(f"RSS {s} MiB after the {'steady state (the end)' if rss_steady else 'runs'}", f"{last[s]:.0f}", "< 300",
        f"{last[s]/300:.2f}", last[s] < 300)

# The quiet round is judged against the target; the one after the runs is reported.
for name, when, judged in (("quiet", ", suite quiet", True), ("after", " after the runs", False)):
    path = f"{out}/ready-{name}.txt"
    if not os.path.exists(path):
        continue
    for line in open(path):
        s, wall, quarkus, others = (line.split() + ["-", "-", "-"])[:4]
        ok = (wall != "none" and float(wall) < 3) if judged else None
        row(f"ready after a start alone{when}, {s} s (Quarkus 'started in'; rest of the machine, % of a core)",
            f"{wall} ({quarkus}; {others})", "< 3" if judged else "(reported)", "-", ok)

w = [max(len(str(r[i])) for r in rows + [("figure", "value", "target", "ratio", "result")]) for i in range(5)]
print(f"\npayment path, {connections} connections, {duration} per run, one run on this machine"
      + (f", creations over {merchants} merchants of one account" if merchants != "1" else ""))
jvm = {l.split()[0]: l.split()[1:] for l in open(f"{out}/jvm-options.txt") if l.strip()}
common = [o for o in next(iter(jvm.values()), []) if all(o in opts for opts in jvm.values())]
print("JVM options of all six services: " + " ".join(common))
for s, opts in jvm.items():
    own = [o for o in opts if o not in common]
    if own:
        print(f"  {s}-service also: " + " ".join(own))
print("  ".join(h.ljust(w[i]) for i, h in enumerate(("figure", "value", "target", "ratio", "result"))))
for r in rows:
    print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))

waits = collections.Counter()
samples = 0
for line in open(f"{out}/waits-gateway.txt"):
    parts = line.split(" ", 2)
    if len(parts) >= 2:
        waits[(parts[0], parts[1], parts[2].strip() if len(parts) > 2 else "")] += 1
for s, run in (("transaction", "gateway"), ("gateway", "gateway"), ("transaction", "gateway2"), ("gateway", "gateway2")):
    path = f"{out}/jfr-{s}-{run}.txt"
    if os.path.exists(path):
        print(f"\nJFR {s}-service during the {run} run (first lines; all in {path}):")
        print("".join(open(path).readlines()[:28]))
for run, seconds, services_shown in (("idle0", idle, services), ("idle", idle, services), ("gateway", None, ("gateway", "transaction")),
                                     ("direct", None, ("transaction",)), ("direct2", None, ("transaction",)),
                                     ("gateway2", None, ("gateway", "transaction"))):
    delta = collections.Counter({k: v for k, v in threads(run).items() if v > 0})
    for s in services_shown:
        rows_s = sorted(((v, k[1]) for k, v in delta.items() if k[0] == s), reverse=True)[:8]
        if run in ("idle", "idle0"):
            text = ", ".join(f"{n} {100 * v / hz / seconds:.1f}%" for v, n in rows_s)
        else:
            total = creation_runs[run]["total"] or 1
            text = ", ".join(f"{n} {1000 * v / hz / total:.2f}" for v, n in rows_s)
        unit = "% of a core" if run in ("idle", "idle0") else "ms CPU per creation"
        print(f"threads {run} {s} ({unit}): {text or '-'}")
print("\ntransaction-service, issued-but-unfunded address indexes per xpub (gap-limit gauge):")
print("".join(open(f"{out}/address-gap.txt").readlines()[:6]) or "  (no gauge)")
def db(name):
    d = {}
    for line in open(f"{out}/db-{name}.txt"):
        parts = line.split()
        if len(parts) == 5:
            d[(parts[0], parts[1])] = tuple(int(x) for x in parts[2:])
    return d
if os.path.exists(f"{out}/db-gateway-0.txt") and os.path.exists(f"{out}/db-gateway-1.txt"):
    d0, d1 = db("gateway-0"), db("gateway-1")
    n = gw["total"] or 1
    print(f"\nwhat the databases did per creation during the gateway run (+2 s), pg_stat_database / pg_stat_user_tables:")
    commits = {k[0]: (d1[k][0] - d0.get(k, (0, 0, 0))[0]) / n for k in d1 if k[1] == "*commits*"}
    print("  commits per creation: " + ", ".join(f"{s} {v:.2f}" for s, v in commits.items()))
    delta = lambda k: tuple(d1[k][i] - d0.get(k, (0, 0, 0))[i] for i in range(3)) if k in d1 else None
    wal, checkpoints = delta(("server", "*wal*")), delta(("server", "*checkpoints*"))
    if wal and checkpoints:
        print(f"  WAL per creation (whole server): {wal[0]/n:.1f} records, {wal[1]/n:.2f} full-page images, "
              f"{wal[2]/n/1024:.1f} kB; checkpoints during the run: {checkpoints[0]}")
    vacuums = {k[0]: delta(k) for k in d1 if k[1] == "*autovacuum*"}
    print("  autovacuum / autoanalyze runs during the run: " + (", ".join(
        f"{s} {v[0]}/{v[1]}" for s, v in vacuums.items() if v[0] or v[1]) or "none"))
    ops = sorted(((sum(d1[k][i] - d0.get(k, (0, 0, 0))[i] for i in range(3)) / n, k,
                   tuple((d1[k][i] - d0.get(k, (0, 0, 0))[i]) / n for i in range(3))) for k in d1 if not k[1].startswith("*")),
                 reverse=True)
    for total_ops, (s, table), (ins, upd, dele) in ops[:14]:
        if total_ops >= 0.01:
            print(f"  {s:12s} {table:28s} inserted {ins:5.2f}  updated {upd:5.2f}  deleted {dele:5.2f}")
print(f"\nactive database sessions during the gateway run, by wait event (samples every 0.25 s; {out}/waits-gateway.txt):")
total = sum(waits.values()) or 1
for (t, e, q), n in waits.most_common(8):
    print(f"  {n:6d} {n/total:6.1%}  {t}:{e}  {q}")
PY
