#!/usr/bin/env bash
# Local EVM node (Foundry's anvil, from the npm package pinned in deploy/evm/package.json; runs offline) with the
# test token deployed, for payment detection against a real JSON-RPC node.
#
#   deploy/local/anvil.sh up NAME [PORT]   start (or reuse) instance NAME on 127.0.0.1:PORT and make sure the test
#                                          token is deployed (PORT defaults: dev=8545, test=18545). A test instance
#                                          is always a FRESH chain: a running one is stopped first.
#   deploy/local/anvil.sh down NAME        stop instance NAME (by pid only)
#   deploy/local/anvil.sh reset NAME       stop instance NAME and delete its saved chain (dev keeps its chain in
#                                          .local/anvil-dev/state.json across down/up)
#   deploy/local/anvil.sh status NAME
#
# The chain: id 11155111 (Sepolia's, so EIP-681 payment URIs and QR codes stay as on the real testnet), the
# well-known anvil test mnemonic ("test ... junk", accounts unlocked, 10,000 ETH each), automining (one block per
# transaction). The test token (deploy/evm/TestToken.sol: "Test USD Coin", USDC, 6 decimals, all of the supply with
# account 0) is the first transaction of account 0, so it sits at 0x5FbDB2315678afecb367f032d93F642f64180aa3.
#
# State: deploy/evm/node_modules (npm ci, once), .local/anvil-NAME/{anvil.pid,anvil.log,port,state.json}.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EVM_DIR="$REPO_ROOT/deploy/evm"
HOST=127.0.0.1
CHAIN_ID=11155111
MNEMONIC="test test test test test test test test test test test junk"
ACCOUNT0=0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266
TOKEN_ADDRESS=0x5fbdb2315678afecb367f032d93f642f64180aa3
START_TIMEOUT_S=30

usage() {
  cat <<EOF
usage: $0 up NAME [PORT] | down NAME | reset NAME | status NAME
  NAME: instance name, e.g. dev (default port 8545) or test (default port 18545)
EOF
}

default_port() {
  case "$1" in
    dev) echo 8545 ;;
    test) echo 18545 ;;
    *) echo "" ;;
  esac
}

check_name() {
  [[ -n "${1:-}" ]] || { usage >&2; die "anvil: instance NAME missing"; }
  [[ "$1" =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "anvil: bad instance name '$1' (use lowercase letters, digits, '-')"
}

# The platform binary shipped in @foundry-rs/anvil's optional dependency (anvil-linux-amd64 here). Started directly
# rather than through the package's node wrapper, so the pid file names anvil itself.
anvil_bin() {
  local bin
  for bin in "$EVM_DIR"/node_modules/@foundry-rs/anvil-*/bin/anvil; do
    if [[ -x "$bin" ]]; then
      printf '%s\n' "$bin"
      return 0
    fi
  done
  return 1
}

# npm ci into deploy/evm/node_modules when the binary is missing (a fresh clone): a few seconds, ~45 MB.
ensure_tools() {
  if anvil_bin >/dev/null; then
    return 0
  fi
  command -v npm >/dev/null || die "anvil: npm not found; install Node.js 20+ with npm (e.g. apt-get install nodejs npm), then re-run"
  step "anvil: installing the pinned anvil and solc into deploy/evm/node_modules (npm ci, once)"
  # --ignore-scripts: the binary comes from the platform package; the wrapper's postinstall would only download a
  # fallback copy of it.
  (cd "$EVM_DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) ||
    die "anvil: npm ci in deploy/evm failed (see above); check access to the npm registry, then re-run"
  anvil_bin >/dev/null ||
    die "anvil: no anvil binary for $(uname -s)/$(uname -m) in deploy/evm/node_modules/@foundry-rs after npm ci (the npm package ships linux/darwin amd64+arm64 and windows amd64)"
}

# rpc PORT METHOD PARAMS_JSON: prints the JSON-RPC answer (empty when the node does not answer).
rpc() {
  curl -s --max-time 5 -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$2\",\"params\":$3}" "http://$HOST:$1" 2>/dev/null || true
}

# result_of JSON: the string "result" of a JSON-RPC answer (empty for an error or a non-string result).
result_of() { sed -n 's/.*"result":"\([^"]*\)".*/\1/p' <<<"$1"; }

wait_rpc() {
  local port="$1" pid="$2" log="$3" deadline
  deadline=$((SECONDS + START_TIMEOUT_S))
  until [[ -n "$(result_of "$(rpc "$port" eth_blockNumber '[]')")" ]]; do
    if ! pid_alive "$pid"; then
      tail -n 20 "$log" >&2 || true
      die "anvil: exited during startup; see $log"
    fi
    ((SECONDS < deadline)) || die "anvil: no answer to eth_blockNumber on $HOST:$port after ${START_TIMEOUT_S}s (pid $pid); see $log"
    sleep 0.1
  done
}

# Deploys deploy/evm/TestToken.bin from account 0 unless the token is there already (a reused or reloaded chain).
ensure_token() {
  local label="$1" port="$2" code nonce answer txn receipt bin="$EVM_DIR/TestToken.bin"
  code="$(result_of "$(rpc "$port" eth_getCode "[\"$TOKEN_ADDRESS\",\"latest\"]")")"
  if [[ -n "$code" && "$code" != 0x ]]; then
    step "$label: test token USDC already at $TOKEN_ADDRESS"
    return 0
  fi
  [[ -s "$bin" ]] || die "$label: $bin missing (it is committed in git; restore it, or rebuild it with deploy/evm/compile.sh)"
  nonce="$(result_of "$(rpc "$port" eth_getTransactionCount "[\"$ACCOUNT0\",\"latest\"]")")"
  [[ "$nonce" == 0x0 ]] ||
    die "$label: account 0 has sent transactions already (nonce $nonce) but the test token is not at $TOKEN_ADDRESS, so it cannot land there any more; run 'deploy/local/anvil.sh reset ${label#anvil-}' for a fresh chain"
  answer="$(rpc "$port" eth_sendTransaction "[{\"from\":\"$ACCOUNT0\",\"data\":\"0x$(tr -d '[:space:]' <"$bin")\",\"gas\":\"0x200000\"}]")"
  txn="$(result_of "$answer")"
  [[ -n "$txn" ]] || die "$label: deploying the test token failed: ${answer:-no answer}"
  # Automining puts the transaction in a block at once, but the node may answer the receipt query before that block
  # is sealed ("result":null, seen on a busy machine): ask again for up to 10 s. The receipt says whether the
  # constructor succeeded.
  local receipt_deadline=$((SECONDS + 10))
  receipt="$(rpc "$port" eth_getTransactionReceipt "[\"$txn\"]")"
  while grep -q '"result":null' <<<"$receipt" && ((SECONDS < receipt_deadline)); do
    sleep 0.2
    receipt="$(rpc "$port" eth_getTransactionReceipt "[\"$txn\"]")"
  done
  grep -q '"status":"0x1"' <<<"$receipt" || die "$label: the test token deployment $txn did not succeed: $receipt"
  code="$(result_of "$(rpc "$port" eth_getCode "[\"$TOKEN_ADDRESS\",\"latest\"]")")"
  [[ -n "$code" && "$code" != 0x ]] ||
    die "$label: the test token is not at the expected address $TOKEN_ADDRESS after deploying it (receipt: $receipt); the payment configuration points there"
  step "$label: deployed the test token USDC (6 decimals, 1,000,000,000 to account 0) at $TOKEN_ADDRESS"
}

# genesis_timestamp NAME STATE_FILE: the time of a saved chain's genesis block; empty when there is no saved chain.
# anvil adds the block 0 it builds to the saved blocks at every load, each stamped later: the chain's own is the earliest.
genesis_timestamp() {
  [[ -s "$2" ]] || return 0
  python3 - "$2" <<'PY' || die "anvil-$1: cannot read the saved chain $2; run 'deploy/local/anvil.sh reset $1' for a fresh chain"
import json, sys
times = [int(block["header"]["timestamp"], 16) for block in json.load(open(sys.argv[1])).get("blocks") or []
         if (block.get("header") or {}).get("number") == "0x0"]
if times:
    print(min(times))
PY
}

# check_links LABEL PORT: block 1 names block 0 as its parent (see genesis_timestamp); a chain saved before that fix
# may not, and can only be replaced.
check_links() {
  local label="$1" port="$2"
  python3 - "$(rpc "$port" eth_getBlockByNumber '["0x0",false]')" "$(rpc "$port" eth_getBlockByNumber '["0x1",false]')" \
    <<'PY' || die "$label: the saved chain is broken: block 1 does not name block 0 as its parent, so payments on it are" \
    "never detected; run 'deploy/local/anvil.sh reset ${label#anvil-}' for a fresh chain (and drop the transaction" \
    "database's ethereum cursor, or the database)"
import json, sys
genesis, first = (json.loads(answer)["result"] for answer in sys.argv[1:3])
sys.exit(0 if first is None or first["parentHash"] == genesis["hash"] else 1)
PY
}

cmd_up() {
  local name="$1" port="${2:-}" label inst pidfile pid t0 elapsed_ms bin
  check_name "$name"
  label="anvil-$name"
  [[ -n "$port" ]] || port="$(default_port "$name")"
  [[ "$port" =~ ^[0-9]+$ ]] || die "$label: PORT missing or not a number (usage: anvil.sh up NAME PORT)"
  inst="$STATE_DIR/$label"
  pidfile="$inst/anvil.pid"
  t0=$(date +%s%N)

  if [[ "$name" == test ]]; then
    # Tests start from a known chain: never reuse one that earlier runs have mined on.
    if pidfile_running "$pidfile"; then
      step "$label: replacing the running test chain by a fresh one"
      stop_pidfile "$pidfile" "$label"
    fi
    rm -f "$inst/state.json"
  elif pidfile_running "$pidfile"; then
    pid="$(head -n1 "$pidfile")"
    [[ "$(cat "$inst/port" 2>/dev/null)" == "$port" ]] ||
      die "$label: already running (pid $pid) on port $(cat "$inst/port" 2>/dev/null || echo '?'), not $port; run 'deploy/local/anvil.sh down $name' first"
    step "$label: already running (pid $pid) on $HOST:$port; reusing"
    ensure_token "$label" "$port"
    return 0
  fi
  rm -f "$pidfile" "$pidfile.cmd"

  if port_open "$HOST" "$port"; then
    die "$label: port $HOST:$port is already in use by a process these scripts did not start; stop it (see: ss -ltnp 'sport = :$port') or choose another port"
  fi

  ensure_tools
  bin="$(anvil_bin)"
  mkdir -p "$inst"
  echo "$port" >"$inst/port"
  local args=(--host "$HOST" --port "$port" --chain-id "$CHAIN_ID" --mnemonic "$MNEMONIC")
  if [[ "$name" != test ]]; then
    # A dev chain outlives down/up (saved on exit and every 30 s), so the watcher's block cursor stays valid.
    args+=(--state "$inst/state.json" --state-interval 30)
    # anvil builds the genesis block again when it loads a saved chain, stamped with the time of that start, and
    # saves it with the chain at the next stop. From the second restart on it served one of these blocks 0, whose hash
    # block 1 (saved) does not name as its parent, and a payment watcher that reads from block 0 (a fresh transaction
    # database) found the chain broken at block 1 at every pass and never detected a payment. Given the saved chain's
    # own genesis time, anvil builds the same block 0 again (deploy-tests AnvilChainTest).
    local genesis
    genesis="$(genesis_timestamp "$name" "$inst/state.json")"
    [[ -z "$genesis" ]] || args+=(--timestamp "$genesis")
  fi
  start_bg "$label" "$pidfile" "$inst/anvil.log" "$bin" "${args[@]}"
  pid="$STARTED_PID"
  wait_rpc "$port" "$pid" "$inst/anvil.log"
  ensure_token "$label" "$port"
  check_links "$label" "$port"
  elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
  step "$label: started (pid $pid) on http://$HOST:$port, chain id $CHAIN_ID, height $(($(result_of "$(rpc "$port" eth_blockNumber '[]')"))), in $(awk -v ms="$elapsed_ms" 'BEGIN { printf "%.1f", ms / 1000 }')s; log .local/$label/anvil.log"
}

cmd_down() {
  local name="$1"
  check_name "$name"
  stop_pidfile "$STATE_DIR/anvil-$name/anvil.pid" "anvil-$name"
}

cmd_reset() {
  local name="$1" inst
  check_name "$name"
  inst="$STATE_DIR/anvil-$name"
  if [[ -f "$inst/anvil.pid" ]]; then
    stop_pidfile "$inst/anvil.pid" "anvil-$name"
  fi
  rm -rf "$inst"
  step "anvil-$name: reset (the next up starts a fresh chain)"
}

cmd_status() {
  local name="$1" inst
  check_name "$name"
  inst="$STATE_DIR/anvil-$name"
  if pidfile_running "$inst/anvil.pid"; then
    step "anvil-$name: running (pid $(head -n1 "$inst/anvil.pid")) on http://$HOST:$(cat "$inst/port"), height $(($(result_of "$(rpc "$(cat "$inst/port")" eth_blockNumber '[]')")))"
  else
    step "anvil-$name: not running"
    return 1
  fi
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    up) cmd_up "${1:-}" "${2:-}" ;;
    down) cmd_down "${1:-}" ;;
    reset) cmd_reset "${1:-}" ;;
    status) cmd_status "${1:-}" ;;
    -h | --help | help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
