#!/usr/bin/env bash
# Payment detection figures (issue 6), against the suite from deploy/local/start (gateway 8080, transaction-service
# 8082, PostgreSQL 5432, and ethereum watched on the dev anvil node at 127.0.0.1:8545). Each run uses a fresh
# sandbox account (created through the operator API) so nothing lands in the printed sandbox account.
#
# (a) Detection latency: the time from the block that gives a transfer its required confirmations to the moment
#     GET /transaction/{id} answers status 1. Per transaction, one at a time: create it (API key + X-MID), pay it
#     exactly with its required confirmations minus one, wait until the service shows that, then produce the final
#     block and take the time right after that call returns; poll GET /transaction/{id} every 20 ms over one kept-
#     alive connection until status 1. The final block: POST /sandbox/chain/blocks (sandbox chain) or anvil_mine
#     (anvil; the payment is an eth_sendTransaction of exactly assetAmount in wei from anvil's unlocked account 0;
#     the watcher polls a node once per tick, so the final anvil_mine comes after a random 0-2 s pause, at a random
#     phase against the ticks as a real block would).
#     Also, from the database: the server-side time from the final block to the watcher pass that confirmed the
#     transfer (payment_transfer.confirmed_at, which is that pass's transaction.updated_at): sandbox_block.mined_at
#     on the sandbox chain, the client's time of the anvil_mine return on anvil.
# (b) Watcher cost per block on the EVM adapter with 0 and with 10,000 open payment requests (status 0, unexpired,
#     distinct random addresses on ethereum, inserted straight into the transaction database, one transaction row
#     each, marked reference_number/xpub 'bench-watcher-<run>' and deleted at the end, also on failure). Automining
#     is switched off (and back on at the end); K blocks are mined one by one with anvil_mine, each holding three
#     transfers: ETH to a random address, ETH elsewhere, USDC elsewhere -- and in a third row, with the same 10,000
#     requests, the first one pays 0.001 ETH to one of them. The next block is mined as soon as chain_cursor shows
#     the watcher read the previous one. Read from transaction-service's /q/metrics before and after:
#     cryptopay_chain_rpc_calls_total{network="ethereum"} and the pass timer cryptopay_watcher_pass_seconds; blocks
#     read = the chain_cursor delta. The pass timer has no network tag, so it also holds the idle passes over the
#     four sandbox networks: an idle window before each row measures that background, and "over idle" subtracts it.
#
#   bench/payment-detection.sh [--count 50] [--warmup 3] [--networks bitcoin,polygon,ethereum]
#                              [--requests 10000] [--blocks 50] [--idle 20] [--skip-latency] [--skip-watcher]
#
# Results: stdout, and the raw figures with the summary in .local/bench-payment-detection/<run>/.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../deploy/local/lib.sh"

count=50 warmup=3 networks=bitcoin,polygon,ethereum open_requests=10000 blocks=50 idle=20
run_latency=true run_watcher=true
while (($# > 0)); do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --networks) networks="$2"; shift 2 ;;
    --requests) open_requests="$2"; shift 2 ;;
    --blocks) blocks="$2"; shift 2 ;;
    --idle) idle="$2"; shift 2 ;;
    --skip-latency) run_latency=false; shift ;;
    --skip-watcher) run_watcher=false; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
for n in "$count" "$warmup" "$open_requests" "$blocks" "$idle"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "counts must be whole numbers, got '$n'"
done
((count > 0 && blocks > 0)) || die "--count and --blocks must be at least 1"

GATEWAY=http://127.0.0.1:8080
METRICS=http://127.0.0.1:8182/q/metrics
NODE=http://127.0.0.1:8545
ACCOUNT0=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
USDC_CONTRACT=0x5FbDB2315678afecb367f032d93F642f64180aa3
POLL_INTERVAL=0.02
RUN="$(date -u +%Y%m%d%H%M%S)-$$"
WATCHER_REF="bench-watcher-$RUN"
OUT="$STATE_DIR/bench-payment-detection/$RUN"
export PGPASSWORD="${PGPASSWORD:-payments}"
PSQL=(psql -h 127.0.0.1 -U payments -d transaction -X -q -t -A -v ON_ERROR_STOP=1)

# --- tools ------------------------------------------------------------------------------------------------------

for tool in curl python3 psql; do
  command -v "$tool" >/dev/null || die "$tool not found (apt-get install curl python3 postgresql-client)"
done
have_jq=false
command -v jq >/dev/null && have_jq=true
$have_jq || warn "jq not found: reading JSON with python3 instead"

# jf PATH: a field of the JSON on stdin, raw (jq -r); PATH is a simple path such as .payments[0].status.
jf() {
  if $have_jq; then
    jq -r "$1"
  else
    python3 -c '
import json, re, sys
v = json.load(sys.stdin)
for name, index in re.findall(r"\.(\w+)|\[(\d+)\]", sys.argv[1]):
    v = v[name] if name else v[int(index)]
print("null" if v is None else str(v).lower() if isinstance(v, bool) else v)' "$1"
  fi
}

sql() { "${PSQL[@]}" -c "$1"; }

# rpc METHOD PARAMS_JSON: the JSON-RPC result of the anvil node (dies on an error).
rpc() {
  local answer
  answer="$(curl -sS --max-time 10 -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}" "$NODE")" ||
    die "anvil: $1 failed (is deploy/local/up running?)"
  [[ "$answer" != *'"error"'* ]] || die "anvil: $1 answered $answer"
  jf .result <<<"$answer"
}

hex() { printf '0x%x' "$1"; }
load1() { cut -d' ' -f1 /proc/loadavg; } # the machine's 1-minute load average, printed with each figure
random_address() { printf '0x%s' "$(head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n')"; }

# api METHOD PATH [BODY]: a gateway call with the bench account's API key and merchant; prints the body. Retries
# 429 (rate limit) and 503 (a merchant not yet known to transaction-service) for up to 30 s.
api() {
  local method="$1" path="$2" body="${3:-}" out code
  local args=(-sS --max-time 30 -w '\n%{http_code}' -X "$method" "$GATEWAY$path" -H "X-Api-Key: $api_key")
  [[ -n "${merchant:-}" ]] && args+=(-H "X-MID: $merchant")
  [[ -n "$body" ]] && args+=(-H 'Content-Type: application/json' -d "$body")
  for _ in $(seq 1 60); do
    out="$(curl "${args[@]}")" || die "$method $path: no answer from the gateway"
    code="${out##*$'\n'}"
    out="${out%$'\n'*}"
    case "$code" in
      2??) printf '%s\n' "$out"; return 0 ;;
      429 | 503) sleep 0.5 ;;
      *) die "$method $path: HTTP $code: $out" ;;
    esac
  done
  die "$method $path: still HTTP $code after 30 s: $out"
}

# --- the suite --------------------------------------------------------------------------------------------------

wait_http "http://127.0.0.1:8180/q/health/ready" 5 || die "the suite is not running (no gateway on $GATEWAY): start it with deploy/local/start"
wait_http "http://127.0.0.1:8182/q/health/ready" 5 || die "transaction-service is not ready on 127.0.0.1:8082: start the suite with deploy/local/start"
[[ "$(rpc eth_chainId '[]')" == 0xaa36a7 ]] || die "no anvil node with chain id 11155111 on $NODE: run deploy/local/up"
metrics_now="$(curl -s "$METRICS" || true)"
[[ "$metrics_now" == *'cryptopay_chain_rpc_calls_total{network="ethereum"}'* ]] ||
  die "transaction-service does not watch ethereum on a node (no cryptopay_chain_rpc_calls_total{network=\"ethereum\"}): restart the suite with deploy/local/start, which points it at $NODE"
sql 'select 1' >/dev/null || die "cannot reach the transaction database (psql -h 127.0.0.1 -U payments transaction)"
mkdir -p "$OUT"

# --- cleanup, also on failure -----------------------------------------------------------------------------------

automine_off=false
delete_bench_rows() { # deletes every directly inserted bench row (this run's and any an interrupted run left)
  local attempt
  for attempt in 1 2 3 4 5; do
    if "${PSQL[@]}" >/dev/null <<'SQL'; then
begin;
create temp table bench_tx on commit drop as
  select id from transaction where reference_number like 'bench-watcher-%' and fx_rate_source = 'bench';
select id from transaction where id in (select id from bench_tx) order by id for update;
delete from payment_transfer where transaction_id in (select id from bench_tx);
delete from payment_request where transaction_id in (select id from bench_tx);
delete from transaction where id in (select id from bench_tx);
commit;
SQL
      return 0
    fi
    sleep "$attempt"
  done
  return 1
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if $automine_off; then
    local body='{"jsonrpc":"2.0","id":1,"method":"evm_setAutomine","params":[true]}'
    if [[ "$(curl -s --max-time 10 -H 'Content-Type: application/json' -d "$body" "$NODE" || true)" == *'"result"'* ]]; then
      step "anvil: automining back on"
    else
      warn "could not switch anvil's automining back on; do it by hand: curl -H 'Content-Type: application/json' -d '$body' $NODE"
    fi
  fi
  if [[ "$(sql "select count(*) from transaction where reference_number like 'bench-watcher-%' and fx_rate_source = 'bench'" 2>/dev/null || echo 0)" != 0 ]]; then
    if delete_bench_rows; then
      step "cleanup: deleted the bench payment requests and transactions (reference_number bench-watcher-*)"
    else
      warn "cleanup: could not delete the bench rows; delete them by hand (reference_number like 'bench-watcher-%')"
    fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- a fresh sandbox account --------------------------------------------------------------------------------------

step "account: creating a fresh sandbox account for this run ($RUN)"
operator_token="$("$LOCAL_DIR/operator-token")"
created="$(curl -sS -w '\n%{http_code}' -X POST "$GATEWAY/operator/accounts" -H "Authorization: Bearer $operator_token" \
  -H 'Content-Type: application/json' -d "{\"name\":\"Bench payment detection $RUN\",\"email\":\"bench@example.com\"}")"
[[ "${created##*$'\n'}" == 201 ]] || die "creating the bench account failed: ${created//$'\n'/ }"
created="${created%$'\n'*}"
account="$(jf .accountUUID <<<"$created")"
api_key="$(jf .apiKey.generatedKey <<<"$created")"
merchant=""
# The gateway learns new keys and merchants from Kafka. Wait for its consumers before the first call with the key
# (and below, with X-MID): a lookup on a miss that races a consumer can make that consumer fail on a duplicate row
# (gateway_key, gateway_merchant) and stop.
gateway_has() { [[ "$(psql -h 127.0.0.1 -U payments -d gateway -X -q -t -A -c "$1" 2>/dev/null || echo 0)" != 0 ]]; }
for _ in $(seq 1 150); do
  gateway_has "select count(*) from gateway_key where account_id = '$account'" && break
  sleep 0.2
done
for _ in $(seq 1 100); do
  code="$(curl -s -o /dev/null -w '%{http_code}' -H "X-Api-Key: $api_key" "$GATEWAY/accounts/$account/keys" || true)"
  [[ "$code" == 200 ]] && break
  sleep 0.2
done
[[ "$code" == 200 ]] || die "the gateway does not accept the bench account's API key (HTTP $code)"
merchant="$(api POST "/accounts/$account/merchants" \
  '{"name":"Bench Shop","address1":"1 Example Street","city":"Berlin","region":"BE","country":"DE","externalMID":"bench"}' | jf .UUID)"
for _ in $(seq 1 150); do
  gateway_has "select count(*) from gateway_merchant where merchant_id = '$merchant' and version > 0" && break
  sleep 0.2
done
step "account: $account, merchant $merchant (default confirmations: catalogue defaults, read back per payment request)"

# --- (a) detection latency ----------------------------------------------------------------------------------------

# Runs the final block call and the status polling in one process, over kept-alive connections, so that neither
# process start-up nor connection set-up falls between the two timestamps. Prints one JSON line.
PY_MEASURE='
import http.client, json, random, sys, time
from urllib.parse import urlsplit
spec = json.loads(sys.argv[1])
def connect(url):
    u = urlsplit(url)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    c.connect()
    return c, u.path
final, final_path = connect(spec["final"]["url"])
poll, poll_path = connect(spec["poll"]["url"])
time.sleep(random.uniform(0, spec["jitter"]))
final.request("POST", final_path, body=spec["final"]["body"], headers=spec["final"]["headers"])
answer = final.getresponse()
body = answer.read()
t0 = time.time()
if answer.status // 100 != 2 or b"\"error\"" in body:
    sys.exit("final block call answered %d: %s" % (answer.status, body[:300]))
polls, get_ms = 0, 0.0
while True:
    sent = time.time()
    try:
        poll.request("GET", poll_path, headers=spec["poll"]["headers"])
        response = poll.getresponse()
        text = response.read()
    except (http.client.HTTPException, OSError):
        poll.close()
        poll, poll_path = connect(spec["poll"]["url"])
        continue
    t1 = time.time()
    polls += 1
    get_ms += (t1 - sent) * 1000
    if response.status == 200 and json.loads(text)["status"] == 1:
        break
    if response.status not in (200, 429):
        sys.exit("GET %s answered %d: %s" % (poll_path, response.status, text[:300]))
    if t1 - t0 > spec["timeout"]:
        sys.exit("no status 1 within %d s" % spec["timeout"])
    time.sleep(spec["interval"])
print(json.dumps({"t0": t0, "t1": t1, "ms": (t1 - t0) * 1000, "polls": polls, "get_ms": get_ms / polls,
                  "final": json.loads(body)}))
'

# wait_confirming TXID N: until the transaction shows its payment confirming with N confirmations (30 s at most).
wait_confirming() {
  local txid="$1" want="$2" answer state
  for _ in $(seq 1 600); do
    answer="$(api GET "/transaction/$txid")"
    state="$(jf .paymentStatus <<<"$answer"):$(jf '.payments[0].confirmationCount' <<<"$answer")"
    [[ "$state" == "2:$want" ]] && return 0
    sleep 0.05
  done
  die "transaction $txid: not seen confirming with $want confirmation(s) within 30 s (last: paymentStatus:confirmations = $state)"
}

latency_network() { # NETWORK ASSET
  local network="$1" asset="$2" chain=sandbox file i label created txid address amount required wei spec result
  local server headers poll_headers final_url final_body jitter=0
  # The watcher reads a node once per tick (nominally 1 s), and the payment was just seen in one: a random pause of
  # up to 2 s before the final block gives it a random phase against the ticks, as a real block would have.
  [[ "$network" == ethereum ]] && chain=anvil jitter=2
  file="$OUT/latency-$network.tsv"
  printf 'txid\trequired\tclient_ms\tserver_ms\tpolls\tget_ms\n' >"$file"
  headers="{\"Content-Type\":\"application/json\",\"X-Api-Key\":\"$api_key\"}"
  poll_headers="{\"X-Api-Key\":\"$api_key\",\"X-MID\":\"$merchant\"}"
  step "latency $network ($chain, $asset): $warmup warm-up + $count measured transactions, one at a time"
  load1 >"$OUT/load-latency-$network.txt"
  for ((i = 1 - warmup; i <= count; i++)); do
    created="$(api POST /transaction "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"$asset\",\"network\":\"$network\",\"referenceNumber\":\"bench-latency-$RUN\"}")"
    txid="$(jf .transactionId <<<"$created")"
    address="$(jf .address <<<"$created")"
    amount="$(jf .assetAmount <<<"$created")"
    required="$(api GET "/transaction/$txid" | jf '.payments[0].requiredConfirmations')"
    [[ "$required" =~ ^[0-9]+$ ]] || die "transaction $txid: no requiredConfirmations in its payment request"
    if [[ "$chain" == sandbox ]]; then
      api POST /sandbox/chain/transfers "{\"network\":\"$network\",\"asset\":\"$asset\",\"toAddress\":\"$address\",\"amount\":\"$amount\",\"confirmations\":$((required - 1))}" >/dev/null
      wait_confirming "$txid" $((required - 1))
      final_url="$GATEWAY/sandbox/chain/blocks"
      final_body="{\"network\":\"$network\",\"count\":1}"
    else
      wei="$(python3 -c 'import decimal, sys; print(hex(int(decimal.Decimal(sys.argv[1]).scaleb(18))))' "$amount")"
      final_url="$NODE"
      final_body="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"anvil_mine\",\"params\":[\"0x1\"]}"
      if ((required == 1)); then # the transaction's own block is the final one
        final_body="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_sendTransaction\",\"params\":[{\"from\":\"$ACCOUNT0\",\"to\":\"$address\",\"value\":\"$wei\"}]}"
      else
        rpc eth_sendTransaction "[{\"from\":\"$ACCOUNT0\",\"to\":\"$address\",\"value\":\"$wei\"}]" >/dev/null # automined: 1
        ((required > 2)) && rpc anvil_mine "[\"$(hex $((required - 2)))\"]" >/dev/null
        wait_confirming "$txid" $((required - 1))
      fi
    fi
    spec="{\"final\":{\"url\":\"$final_url\",\"body\":$(printf '%s' "$final_body" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))'),\"headers\":$headers},\"poll\":{\"url\":\"$GATEWAY/transaction/$txid\",\"headers\":$poll_headers},\"interval\":$POLL_INTERVAL,\"jitter\":$jitter,\"timeout\":30}"
    result="$(python3 -c "$PY_MEASURE" "$spec")" || die "latency $network: measuring transaction $txid failed"
    if [[ "$chain" == sandbox ]]; then # block mined_at -> confirming pass (both server clocks)
      server="$(sql "select round((extract(epoch from p.confirmed_at - b.mined_at) * 1000)::numeric, 1)
        from payment_transfer p join sandbox_block b on b.network = p.network and b.number = $(jf .final.headBlock <<<"$result")
        where p.transaction_id = '$txid' and p.status = 1 limit 1")"
    else # anvil_mine returned (client clock) -> confirming pass (server clock), same machine
      server="$(sql "select round(((extract(epoch from confirmed_at) - $(jf .t0 <<<"$result")) * 1000)::numeric, 1)
        from payment_transfer where transaction_id = '$txid' and status = 1 limit 1")"
    fi
    if ((i >= 1)); then
      printf '%s\t%s\t%.1f\t%s\t%s\t%.1f\n' "$txid" "$required" "$(jf .ms <<<"$result")" "${server:-nan}" \
        "$(jf .polls <<<"$result")" "$(jf .get_ms <<<"$result")" >>"$file"
      label="measured $i/$count"
    else
      label="warm-up"
    fi
    if ((i <= 0 || i % 10 == 0 || i == count)); then
      step "latency $network: $label: $(printf '%.0f' "$(jf .ms <<<"$result")") ms to status 1 (server ${server:-?} ms; $required confirmations)"
    fi
  done
  load1 >>"$OUT/load-latency-$network.txt"
}

latency_files=()
if $run_latency; then
  IFS=',' read -r -a latency_networks <<<"$networks"
  for network in "${latency_networks[@]}"; do
    case "$network" in
      bitcoin) latency_network bitcoin BTC ;;
      polygon) latency_network polygon USDC ;;
      ethereum) latency_network ethereum ETH ;;
      *) die "--networks: bitcoin, polygon and/or ethereum, not '$network'" ;;
    esac
    latency_files+=("$network=$OUT/latency-$network.tsv")
  done
fi

# --- (b) watcher cost per block -------------------------------------------------------------------------------

cursor() { sql "select block_number from chain_cursor where network = 'ethereum'"; }

wait_cursor() { # HEIGHT: until the watcher has read up to HEIGHT (30 s at most)
  local c
  for _ in $(seq 1 300); do
    c="$(cursor)"
    [[ -n "$c" ]] && ((c >= $1)) && return 0
    sleep 0.1
  done
  die "the watcher did not read ethereum block $1 within 30 s (cursor ${c:-none}); see .local/logs/transaction.log"
}

snapshot() { # NAME: metrics + cursor + time
  curl -sS "$METRICS" >"$OUT/metrics-$1.txt" || die "cannot read $METRICS"
  printf '%s %s %s\n' "$(cursor)" "$EPOCHREALTIME" "$(load1)" >"$OUT/cursor-$1.txt"
}

insert_bench_rows() { # N
  "${PSQL[@]}" -v n="$1" -v account="$account" -v merchant="$merchant" -v ref="$WATCHER_REF" >/dev/null <<'SQL'
begin;
create temp table bench_rows on commit drop as
  select gen_random_uuid() as tx_id, gen_random_uuid() as pr_id, i,
         '0x' || substr(md5(random()::text || i) || md5(random()::text || i), 1, 40) as address
  from generate_series(1, :n) i;
insert into transaction (id, account_id, merchant_id, external_mid, reference_number, status, payment_status, currency,
                         total_local, total_usd, fx_rate_to_usd, fx_rate_source, requested_asset, requested_network,
                         created_at, updated_at, expiration)
  select tx_id, :'account', :'merchant', 'bench', :'ref', 0, 0, 'USD', 32, 32, 1, 'bench', 'ETH', 'ethereum',
         now(), now(), now() + interval '2 hours'
  from bench_rows;
insert into payment_request (id, transaction_id, crypto_asset, crypto_network, address, xpub, derivation_index,
                             expected_crypto, expected_usd, crypto_fx_rate, status, qr_data, expiration, created_at,
                             required_confirmations)
  select pr_id, tx_id, 'ETH', 'ethereum', address, :'ref', i, 0.01, 32, 3200, 0,
         'ethereum:' || address || '@11155111?value=10000000000000000', now() + interval '2 hours', now(), 3
  from bench_rows;
commit;
analyze transaction;
analyze payment_request;
SQL
}

bench_rows_in=0
watcher_phase() { # NAME REQUESTS PAY: PAY=true sends the first transfer of each block to an open bench request
  local name="watcher-$1" requests="$2" pay="$3" what head k to targets=() h
  what="$requests open requests$($pay && echo ', one paid per block' || true)"
  if ((requests != bench_rows_in)); then
    ((bench_rows_in == 0)) || delete_bench_rows || die "could not delete the bench rows"
    bench_rows_in=0
    if ((requests > 0)); then
      step "watcher ($what): inserting $requests open payment requests on ethereum ($WATCHER_REF)"
      insert_bench_rows "$requests"
      bench_rows_in="$requests"
    fi
  fi
  step "watcher ($what): $(sql "select count(*) from payment_request where crypto_network = 'ethereum' and status = 0 and expiration > now()") open ethereum payment requests in the database"
  if $pay; then
    mapfile -t targets < <(sql "select address from payment_request where xpub = '$WATCHER_REF' and status = 0 order by random() limit $blocks")
  fi
  head=$(($(rpc eth_blockNumber '[]')))
  wait_cursor "$head"
  step "watcher ($what): idle for ${idle}s (background: passes over all networks, no new block)"
  snapshot "$name-idle0"
  sleep "$idle"
  snapshot "$name-idle1"
  step "watcher ($what): mining $blocks blocks one by one, 3 transfers each"
  rpc evm_setAutomine '[false]' >/dev/null
  automine_off=true
  snapshot "$name-0"
  for ((k = 0; k < blocks; k++)); do
    to="${targets[k]:-$(random_address)}"
    rpc eth_sendTransaction "[{\"from\":\"$ACCOUNT0\",\"to\":\"$to\",\"value\":\"0x38d7ea4c68000\"}]" >/dev/null # 0.001 ETH
    rpc eth_sendTransaction "[{\"from\":\"$ACCOUNT0\",\"to\":\"$(random_address)\",\"value\":\"0x2386f26fc10000\"}]" >/dev/null
    rpc eth_sendTransaction "[{\"from\":\"$ACCOUNT0\",\"to\":\"$USDC_CONTRACT\",\"value\":\"0x0\",\"data\":\"0xa9059cbb000000000000000000000000$(random_address | cut -c3-)00000000000000000000000000000000000000000000000000000000000f4240\"}]" >/dev/null
    rpc anvil_mine '["0x1"]' >/dev/null
    h=$(($(rpc eth_blockNumber '[]')))
    [[ "$(($(rpc eth_getBlockTransactionCountByNumber "[\"$(hex "$h")\"]")))" == 3 ]] ||
      warn "block $h does not hold the 3 transfers"
    wait_cursor "$h"
    if (((k + 1) % 10 == 0)); then
      step "watcher ($what): $((k + 1))/$blocks blocks read (height $h)"
    fi
  done
  snapshot "$name-1"
  rpc evm_setAutomine '[true]' >/dev/null
  automine_off=false
  if $pay; then
    step "watcher ($what): $(sql "select count(*) from payment_transfer where transaction_id in (select id from transaction where reference_number = '$WATCHER_REF')") transfers to bench requests recorded"
  fi
}

watcher_phases=()
if $run_watcher; then
  watcher_phase none 0 false
  watcher_phases+=("none:0:0 open requests")
  if ((open_requests > 0)); then
    watcher_phase open "$open_requests" false
    watcher_phases+=("open:$open_requests:$open_requests open, none paid")
    watcher_phase paid "$open_requests" true
    watcher_phases+=("paid:$open_requests:$open_requests open, 1 paid/block")
  fi
  delete_bench_rows || die "could not delete the bench rows"
  bench_rows_in=0
  step "watcher: bench rows deleted"
fi

# --- summary ------------------------------------------------------------------------------------------------------

python3 - "$OUT" "$count" "$blocks" "$POLL_INTERVAL" "${latency_files[*]:-}" "$(IFS='|'; echo "${watcher_phases[*]:-}")" <<'PY' | tee "$OUT/summary.txt"
import math, os, sys
out, count, blocks, interval, latency_files, phases = sys.argv[1:7]

def pct(values, p):  # nearest rank
    values = sorted(values)
    return values[max(0, math.ceil(p / 100 * len(values)) - 1)]

if latency_files:
    print()
    print("(a) Detection latency: final confirming block -> status 1, one transaction at a time")
    print("    client: the final-block call returned -> GET /transaction/{id} through the gateway answers status 1")
    print("            (polled every %d ms; 'GET ms' = mean round trip of one such GET, the resolution of the client figure)" % (float(interval) * 1000))
    print("    server: sandbox_block.mined_at (sandbox) or the anvil_mine return (anvil, client clock) -> payment_transfer.confirmed_at")
    print("            (the start of the watcher pass that confirmed it, = its transaction.updated_at; before that pass commits)")
    print(f"{'network':10}{'chain':9}{'conf':>5}{'n':>5}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'mean ms':>9}{'GET ms':>8}  |{'srv p50':>9}{'srv p99':>9}{'srv max':>9}  load")
    for entry in latency_files.split():
        network, path = entry.split("=", 1)
        rows = [line.rstrip("\n").split("\t") for line in open(path).readlines()[1:]]
        client = [float(r[2]) for r in rows]
        server = [float(r[3]) for r in rows if r[3] not in ("nan", "")]
        get = [float(r[5]) for r in rows]
        conf = ",".join(sorted({r[1] for r in rows}))
        chain = "anvil" if network == "ethereum" else "sandbox"
        line = (f"{network:10}{chain:9}{conf:>5}{len(client):>5}{pct(client, 50):9.1f}{pct(client, 99):9.1f}"
                f"{max(client):9.1f}{sum(client) / len(client):9.1f}{sum(get) / len(get):8.1f}  |")
        if server:
            line += f"{pct(server, 50):9.1f}{pct(server, 99):9.1f}{max(server):9.1f}"
        load = open(os.path.join(out, f"load-latency-{network}.txt")).read().split()
        print(line + "  " + "-".join(load))
    if int(count) < 100:
        print(f"    (nearest rank: with n = {count} < 100, p99 is the largest value)")
    print(f"    load: the machine's 1-min load average at the start and the end of each network's series ({os.cpu_count()} CPUs)")

def metrics(name):
    values = {}
    for line in open(os.path.join(out, f"metrics-{name}.txt")):
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            try:
                values[key] = float(value)
            except ValueError:
                pass
    cursor, when, load = open(os.path.join(out, f"cursor-{name}.txt")).read().split()
    return values, int(cursor), float(when), load

CALLS = 'cryptopay_chain_rpc_calls_total{network="ethereum"}'
COUNT, SUM = "cryptopay_watcher_pass_seconds_count", "cryptopay_watcher_pass_seconds_sum"
P50, P99 = 'cryptopay_watcher_pass_seconds{quantile="0.5"}', 'cryptopay_watcher_pass_seconds{quantile="0.99"}'
MAX = "cryptopay_watcher_pass_seconds_max"
if phases:
    print()
    print(f"(b) Watcher cost per block on ethereum (EVM adapter, anvil): {blocks} blocks mined one by one, 3 transfers each")
    print("    calls/blk = cryptopay_chain_rpc_calls_total{network=\"ethereum\"} delta / blocks read (chain_cursor delta)")
    print("    timer = cryptopay_watcher_pass_seconds sum delta / blocks read; it holds every network's passes (no network")
    print("    tag), so 'over idle' subtracts the idle rate measured just before (no block mined) over the same time;")
    print("    idle calls/s: eth_blockNumber of the idle passes (one per watcher tick). p50/p99/max: the timer's own")
    print("    (all networks, Micrometer's ~2 min window) at the end of the phase. load: 1-min load average, start-end.")
    print(f"{'open payment requests':28}{'blocks':>7}{'calls':>7}{'calls/blk':>10}{'idle calls/s':>13}{'passes/blk':>11}{'timer ms/blk':>13}{'over idle':>10}{'s/blk':>7}  load   p50 / p99 / max ms")
    for phase in phases.split("|"):
        key, requests, label = phase.split(":", 2)
        name = f"watcher-{key}"
        i0, _, ti0, _ = metrics(name + "-idle0")
        i1, _, ti1, _ = metrics(name + "-idle1")
        m0, c0, t0, load0 = metrics(name + "-0")
        m1, c1, t1, load1 = metrics(name + "-1")
        read = c1 - c0
        if read <= 0:
            print(f"{label:28}  no block read")
            continue
        calls = m1.get(CALLS, 0) - m0.get(CALLS, 0)
        idle_calls = (i1.get(CALLS, 0) - i0.get(CALLS, 0)) / (ti1 - ti0)
        idle_ms = (i1.get(SUM, 0) - i0.get(SUM, 0)) * 1000 / (ti1 - ti0)
        passes = m1.get(COUNT, 0) - m0.get(COUNT, 0)
        timer_ms = (m1.get(SUM, 0) - m0.get(SUM, 0)) * 1000
        over = (timer_ms - idle_ms * (t1 - t0)) / read
        p50, p99, top = (m1.get(k, float("nan")) * 1000 for k in (P50, P99, MAX))
        print(f"{label:28}{read:>7}{calls:>7.0f}{calls / read:>10.2f}{idle_calls:>13.2f}{passes / read:>11.2f}"
              f"{timer_ms / read:>13.2f}{over:>10.2f}{(t1 - t0) / read:>7.2f}  {load0}-{load1}   {p50:.1f} / {p99:.1f} / {top:.1f}")
print()
PY
step "raw figures and this summary in ${OUT#"$REPO_ROOT"/}"
