#!/usr/bin/env bash
# Measures what each service of the running local suite uses, for the Kubernetes requests and limits
# (docs/deploying-kubernetes.md, "Resources"): resident memory (RSS) and CPU of the six service processes, idle
# after start and while payment flows run through the gateway.
#   deploy/local/start && bench/deploy-resources.sh [FLOWS] [WORKERS]; deploy/local/stop   (under the build lock)
# A flow: create a transaction (publishable key), pay it on the sandbox chain, read it until paid, read the
# account's reporting summary and transaction listing. Defaults: 300 flows over 4 parallel workers.
#   bench/deploy-resources.sh --watch [BASE_PORT]
# instead samples the six services listening on BASE_PORT..BASE_PORT+5 (default 18080: the suite the system tests
# start) from when they appear until they stop, e.g. beside `deploy/local/test -pl system-tests -am ...`, and
# prints the same table over their whole run.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../deploy/local/lib.sh"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

if [[ "${1:-}" == --watch ]]; then
  base="${2:-18080}"
  hz="$(getconf CLK_TCK)"
  declare -A wpid wpeak wticks
  wnames=(gateway merchant transaction subscription webhook reporting)
  until (($(ss -ltnH "sport >= :$base and sport <= :$((base + 5))" | wc -l) >= 6)); do sleep 1; done
  for i in "${!wnames[@]}"; do
    wpid[${wnames[$i]}]="$(ss -ltnpH "sport = :$((base + i))" | sed -nE 's/.*pid=([0-9]+).*/\1/p' | head -n1)"
    wpeak[${wnames[$i]}]=0
  done
  t0=$SECONDS
  while kill -0 "${wpid[gateway]}" 2>/dev/null; do
    for n in "${wnames[@]}"; do
      r="$(rss_kib "${wpid[$n]}")"
      ((r > wpeak[$n])) && wpeak[$n]=$r
      t="$(cpu_ticks "${wpid[$n]}")"
      ((t > 0)) && wticks[$n]=$t
    done
    sleep 1
  done
  elapsed=$((SECONDS - t0))
  printf 'watched %s s (RSS in MiB; CPU in millicores averaged over the run, start-up included)\n' "$elapsed"
  printf '%-22s %10s %12s\n' service peak_rss avg_cpu_m
  for n in "${wnames[@]}"; do
    printf '%-22s %10d %12d\n' "$n-service" $((wpeak[$n] / 1024)) $((${wticks[$n]:-0} * 1000 / hz / (elapsed > 0 ? elapsed : 1)))
  done
  exit 0
fi

flows="${1:-300}"
workers="${2:-4}"
gw="${GATEWAY_URL:-http://127.0.0.1:8080}"
hz="$(getconf CLK_TCK)"
declare -A pid
for s in gateway:8080 merchant:8081 transaction:8082 subscription:8083 webhook:8084 reporting:8085; do
  name="${s%%:*}" port="${s##*:}"
  p="$(ss -ltnpH "sport = :$port" | sed -nE 's/.*pid=([0-9]+).*/\1/p' | head -n1)"
  [[ -n "$p" ]] || die "no process listens on $port: start the suite first (deploy/local/start)"
  pid[$name]="$p"
done
names=(gateway merchant transaction subscription webhook reporting)


"$LOCAL_DIR/sandbox-account" >/dev/null
saved="$STATE_DIR/sandbox-account.json"
get() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]] if len(sys.argv)<4 else json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' "$saved" "$@"; }
account="$(get accountUUID)"
ak="$(get apiKey generatedKey)"
pk="$(get merchantPublishableKey)"

declare -A idle start_ticks peak sum_rss
for n in "${names[@]}"; do
  idle[$n]="$(rss_kib "${pid[$n]}")"
  start_ticks[$n]="$(cpu_ticks "${pid[$n]}")"
  peak[$n]=0
done

flow() {
  local tx id addr amount status i
  tx="$(curl -s -X POST "$gw/transaction" -H "X-Publishable-Key: $pk" -H 'Content-Type: application/json' \
    -d '{"amount":25,"amountCurrency":"USD","asset":"USDC","network":"base"}')"
  id="$(sed -nE 's/.*"transactionId":"([^"]+)".*/\1/p' <<<"$tx")"
  addr="$(sed -nE 's/.*"address":"([^"]+)".*/\1/p' <<<"$tx")"
  amount="$(sed -nE 's/.*"assetAmount":"([^"]+)".*/\1/p' <<<"$tx")"
  [[ -n "$id" && -n "$addr" ]] || { echo "create failed: $tx" >&2; return 0; }
  curl -s -o /dev/null -X POST "$gw/sandbox/chain/transfers" -H "X-Api-Key: $ak" -H 'Content-Type: application/json' \
    -d "{\"network\":\"base\",\"asset\":\"USDC\",\"toAddress\":\"$addr\",\"amount\":\"$amount\",\"confirmations\":3}"
  for i in $(seq 1 40); do
    status="$(curl -s "$gw/transaction/$id" -H "X-Publishable-Key: $pk" | sed -nE 's/.*"status":(-?[0-9]+).*/\1/p' | head -n1)"
    [[ "$status" == 1 ]] && break
    sleep 0.25
  done
  curl -s -o /dev/null "$gw/accounts/$account/reporting/summary" -H "X-Api-Key: $ak"
  curl -s -o /dev/null "$gw/accounts/$account/reporting/transactions?limit=50" -H "X-Api-Key: $ak"
}
export -f flow
export gw pk ak account

t0=$SECONDS
seq 1 "$flows" | xargs -P "$workers" -I{} bash -c flow &
load=$!
samples=0
while kill -0 "$load" 2>/dev/null; do
  for n in "${names[@]}"; do
    r="$(rss_kib "${pid[$n]}")"
    ((r > peak[$n])) && peak[$n]=$r
  done
  samples=$((samples + 1))
  sleep 1
done
wait "$load" || true
elapsed=$((SECONDS - t0))
((elapsed > 0)) || elapsed=1

printf '%s flows, %s workers, %s s, %s samples (RSS in MiB; CPU in millicores = CPU seconds per wall second x 1000)\n' \
  "$flows" "$workers" "$elapsed" "$samples"
printf '%-22s %10s %10s %12s\n' service idle_rss peak_rss avg_cpu_m
for n in "${names[@]}"; do
  used=$(($(cpu_ticks "${pid[$n]}") - start_ticks[$n]))
  printf '%-22s %10d %10d %12d\n' "$n-service" $((idle[$n] / 1024)) $((peak[$n] / 1024)) $((used * 1000 / hz / elapsed))
done
