#!/usr/bin/env bash
# reporting-service benchmark (issue 17): projection throughput replaying COUNT events, then listing latency with
# COUNT rows spread over ACCOUNTS accounts.
#
# (a) Replay: COUNT transaction events in the documented shape (bench/reporting/GenerateEvents.java; one transaction
#     per event so the store ends with COUNT rows, 60 % successful with fee terms) and 10 merchant events per account
#     are written to fresh topics bench-<run>.{transactions,refunds,merchants} on the test broker. Then reporting-service
#     starts from its built jar against a fresh database reporting_bench, its channels pointed at those topics, and
#     replays them from offset zero. Throughput = COUNT / (time of the last applied event - time the service was
#     ready), read from its reporting_events_total counter once a second.
# (b) Listing: after VACUUM ANALYZE, GET /accounts/{a}/transactions straight on the service (identity token minted
#     with the local development key, as the gateway would), the first page (limit 50, total exact) of a random
#     account: unfiltered, statuses=1, a 30-day fromDate/toDate range, merchantID. N requests per case after a
#     warm-up, sequential over one kept-alive connection (curl); p50/p99 of curl's time_total.
#
#   bench/reporting-projection.sh [--count 1000000] [--accounts 100] [--requests 500] [--keep]
#
# Needs: reporting-service built (./mvnw -pl reporting-service install -DskipTests) and the test infrastructure up
# (deploy/local/up --test). Starting the service and producing run under the shared build lock. --keep leaves the
# database and topics (otherwise the database is dropped at the end; the topics stay, the test broker keeps them).
# Results: stdout and .local/bench-reporting/<run>/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
. "$ROOT/deploy/local/lib.sh"

count=1000000 accounts=100 requests=500 keep=false
while (($#)); do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --accounts) accounts="$2"; shift 2 ;;
    --requests) requests="$2"; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "reporting-projection: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR=reporting-service/target/quarkus-app/quarkus-run.jar
[[ -f "$JAR" ]] || { echo "reporting-projection: build reporting-service first" >&2; exit 1; }
(exec 3<>/dev/tcp/127.0.0.1/19092) 2>/dev/null || { echo "reporting-projection: no test Kafka on 19092" >&2; exit 1; }

run="$(date -u +%Y%m%d%H%M%S)"
out="$ROOT/.local/bench-reporting/$run"
mkdir -p "$out"
PORT=18285
DB=reporting_bench
prefix="bench-$run"
PSQL=(psql -q -h 127.0.0.1 -U payments -v ON_ERROR_STOP=1)
ADMIN=(psql -q -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1) # creating a database needs a superuser (local trust)
service_pid=""

cleanup() {
  [[ -n "$service_pid" ]] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null || true
  if [[ "$keep" != true ]]; then
    "${ADMIN[@]}" -d postgres -c "drop database if exists $DB" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$out/summary.txt"; }

log "run $run: $count events, $accounts accounts; machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
"${ADMIN[@]}" -d postgres -c "drop database if exists $DB" -c "create database $DB owner payments" >/dev/null

# --- (a) produce, then replay ------------------------------------------------------------------------------------
cp="$(ls "$ROOT"/reporting-service/target/quarkus-app/lib/main/*.jar | grep -v slf4j-jboss | tr '\n' ':')"
log "producing to $prefix.*"
flock /tmp/cryptopay-build.lock "$JAVA" -cp "$cp" bench/reporting/GenerateEvents.java 127.0.0.1:19092 "$prefix" \
  "$count" "$accounts" | tee -a "$out/summary.txt"

metric() {
  curl -s "http://127.0.0.1:$((PORT + 100))/q/metrics" |
    awk -v t="$1" '$0 ~ "^reporting_events_total" && $0 ~ "result=\"applied\"" && $0 ~ "topic=\"" t "\"" {s += $2} END {printf "%d", s}'
}

start_service() {
  PORT=$PORT MANAGEMENT_PORT=$((PORT + 100)) HTTP_HOST=127.0.0.1 MANAGEMENT_HOST=127.0.0.1 CRYPTOPAY_ENVIRONMENT=sandbox \
    DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB" KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:19092 \
    REPORTING_GROUP="$prefix" \
    CRYPTOPAY_REPORTING_TOPICS_TRANSACTIONS="$prefix.transactions" \
    CRYPTOPAY_REPORTING_TOPICS_REFUNDS="$prefix.refunds" \
    CRYPTOPAY_REPORTING_TOPICS_MERCHANTS="$prefix.merchants" \
    MP_JWT_VERIFY_PUBLICKEY_LOCATION="$ROOT/deploy/local/keys/local-dev-internal-public.pem" \
    "$JAVA" -Xms256m -Xmx1g -jar "$JAR" >"$out/service.log" 2>&1 &
  service_pid=$!
  for _ in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$((PORT + 100))/q/health/ready" >/dev/null 2>&1 && return 0
    sleep 0.25
  done
  echo "reporting-projection: the service did not become ready; see $out/service.log" >&2
  exit 1
}

log "replaying from offset zero"
exec 9>/tmp/cryptopay-build.lock
flock 9
start_service
ready=$(date +%s.%N)
applied=0
while ((applied < count)); do
  sleep 1
  applied=$(metric payments.transactions.v1)
  printf '%s %s\n' "$(date +%s.%N)" "$applied" >>"$out/progress.txt"
  if ! kill -0 "$service_pid" 2>/dev/null; then echo "service died; see $out/service.log" >&2; exit 1; fi
done
done_at=$(date +%s.%N)
flock -u 9
awk -v n="$count" -v a="$ready" -v b="$done_at" 'BEGIN {printf "projection: %d events in %.1f s = %.0f events/s\n", n, b - a, n / (b - a)}' |
  tee -a "$out/summary.txt"

# --- (b) listing latency ------------------------------------------------------------------------------------------
schema=$("${PSQL[@]}" -d "$DB" -At -c "select active_schema from store_pointer")
rows=$("${PSQL[@]}" -d "$DB" -At -c "select count(*) from $schema.transaction_row")
log "store $schema: $rows transaction rows; VACUUM ANALYZE"
"${PSQL[@]}" -d "$DB" -c "vacuum analyze $schema.transaction_row" -c "vacuum analyze $schema.payment_row" >/dev/null

token() { # an internal identity token for account $1, as the gateway mints it, valid an hour (the listing runs)
  identity_token --role admin --key-type api --account "$1" --lifetime 3600
}
uuid_of() { # the generator's name-based ids (UUID v3 of "bench-<name>")
  python3 -c "import hashlib,uuid,sys; h=bytearray(hashlib.md5(('bench-'+sys.argv[1]).encode()).digest()); h[6]=(h[6]&0x0f)|0x30; h[8]=(h[8]&0x3f)|0x80; print(uuid.UUID(bytes=bytes(h)))" "$1"
}
declare -a ACC TOK MER
for ((a = 0; a < accounts; a++)); do
  ACC[a]=$(uuid_of "account-$a")
  TOK[a]=$(token "${ACC[a]}")
  MER[a]=$(uuid_of "merchant-$a-3")
done
check=$(curl -s -H "Authorization: Bearer ${TOK[0]}" "http://127.0.0.1:$PORT/accounts/${ACC[0]}/transactions?limit=1")
log "account 0: $(printf '%s' "$check" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("total", d["total"])')"

measure() { # name, query-suffix builder
  local name="$1" config="$out/$1.curl" times="$out/$1.times" n i a
  : >"$config"
  for ((i = 0; i < requests + 100; i++)); do
    a=$((RANDOM % accounts))
    {
      ((i > 0)) && echo "next"
      printf 'url = "http://127.0.0.1:%s/accounts/%s/transactions%s"\n' "$PORT" "${ACC[a]}" "$($2 "$a")"
      printf 'header = "Authorization: Bearer %s"\n' "${TOK[a]}"
      echo 'output = "/dev/null"'
      echo 'write-out = "%{http_code} %{time_total}\n"'
    } >>"$config"
  done
  curl -s -K "$config" >"$times.all"
  if grep -qv '^200 ' "$times.all"; then echo "non-200 answers in $name: $(grep -v '^200 ' "$times.all" | head -3)" >&2; fi
  tail -n "$requests" "$times.all" | awk '{print $2 * 1000}' | sort -n >"$times"
  n=$(wc -l <"$times")
  awk -v name="$name" -v n="$n" '{v[NR] = $1} END {
      p50 = v[int(n * 0.50 + 0.5)]; p99 = v[int(n * 0.99 + 0.5)]; printf "listing %-12s n=%d  p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms\n", name, n, p50, p99, v[n]}' "$times" |
    tee -a "$out/summary.txt"
}
q_none() { echo ""; }
q_status() { echo "?statuses=1"; }
q_range() { local m=$((1 + RANDOM % 11)); printf '?fromDate=2026-%02d-01&toDate=2026-%02d-28' "$m" "$m"; }
q_merchant() { echo "?merchantID=${MER[$1]}"; }

exec 9>/tmp/cryptopay-build.lock
flock 9
measure unfiltered q_none
measure status q_status
measure date-range q_range
measure merchant q_merchant
flock -u 9
log "done; raw figures in $out"
