#!/usr/bin/env bash
# Gateway overhead: the same authenticated GET (GET /accounts/{id}/keys of the sandbox account) through the
# gateway (8080, API key) and straight to merchant-service (8081, an identity token minted like the gateway's),
# in the same run on the same machine, with wrk. Needs the suite from deploy/local/start, started with the per-key
# and per-account rate limits out of the way (else most answers are 429):
#   RATE_LIMIT_KEY_CAPACITY=1000000 RATE_LIMIT_KEY_PER_SECOND=1000000 CRYPTOPAY_LIMITS_REQUEST_BURST=1000000 \
#   CRYPTOPAY_LIMITS_REQUESTS_PER_SECOND=1000000 deploy/local/start
#   bench/gateway-overhead.sh [--duration 20s] [--connections 16]
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../deploy/local/lib.sh"

duration=20s connections=16
while (($# > 0)); do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done

if ! command -v wrk >/dev/null; then
  step "installing wrk (Debian package)"
  apt-get install -y -qq wrk >/dev/null || die "apt-get install wrk failed (run apt-get update first)"
fi
wait_http http://127.0.0.1:8180/q/health/ready 5 || die "the suite is not running: deploy/local/start"
"$LOCAL_DIR/sandbox-account" >/dev/null
account=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["accountUUID"])' "$STATE_DIR/sandbox-account.json")
api_key=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["apiKey"]["generatedKey"])' "$STATE_DIR/sandbox-account.json")

token=$(identity_token --role admin --key-type api --account "$account")

path="/accounts/$account/keys"
run() { # name url header
  step "$1: warm-up"
  wrk -t2 -c"$connections" -d5s -H "$3" "$2$path" >/dev/null
  step "$1: measuring for $duration with $connections connections"
  wrk -t2 -c"$connections" -d"$duration" --latency -H "$3" "$2$path" >"$STATE_DIR/bench-$1.txt"
  [[ "$(grep -c 'Non-2xx' "$STATE_DIR/bench-$1.txt")" == 0 ]] || die "$1: some answers were not 2xx (see $STATE_DIR/bench-$1.txt)"
}
run direct http://127.0.0.1:8081 "Authorization: Bearer $token"
run gateway http://127.0.0.1:8080 "X-Api-Key: $api_key"

python3 - "$STATE_DIR/bench-direct.txt" "$STATE_DIR/bench-gateway.txt" <<'PY'
import re, sys
def parse(path):
    text = open(path).read()
    def ms(label):
        m = re.search(r'^\s*' + label + r'%\s+([\d.]+)(us|ms|s)', text, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == 'us' else value * 1000 if unit == 's' else value
    rps = float(re.search(r'Requests/sec:\s+([\d.]+)', text).group(1))
    return ms('50'), ms('99'), rps
d, g = parse(sys.argv[1]), parse(sys.argv[2])
print(f"{'':10}{'p50 ms':>10}{'p99 ms':>10}{'req/s':>10}")
print(f"{'direct':10}{d[0]:10.2f}{d[1]:10.2f}{d[2]:10.0f}")
print(f"{'gateway':10}{g[0]:10.2f}{g[1]:10.2f}{g[2]:10.0f}")
print(f"gateway adds {g[0]-d[0]:.2f} ms at p50 (target <= 1 ms) and keeps {100*g[2]/d[2]:.0f}% of the direct throughput (target >= 80%)")
PY
