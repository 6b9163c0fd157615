# shellcheck shell=bash
# Shared helpers for the local-infrastructure scripts under deploy/local/.
# Source it:  . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# Provides: REPO_ROOT, STATE_DIR (<repo>/.local, git-ignored), step, warn, die,
#           find_java, wait_http, wait_port, port_open, start_bg, stop_pidfile, pid_alive, jwt_rs256,
#           identity_token.

if [[ -n "${_LOCAL_LIB_SOURCED:-}" ]]; then
  return 0
fi
_LOCAL_LIB_SOURCED=1

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LOCAL_DIR/../.." && pwd)"
STATE_DIR="$REPO_ROOT/.local"
export REPO_ROOT STATE_DIR LOCAL_DIR

# Progress line: "==> postgres: reusing server on 127.0.0.1:5432"
step() { printf '==> %s\n' "$*"; }
warn() { printf 'WARN: %s\n' "$*" >&2; }
die() {
  printf 'ERROR: %s\n' "$*" >&2
  exit 1
}

# --- Java -------------------------------------------------------------------

# Prints the feature (major) version of the given java binary, or nothing.
_java_major() {
  local java_bin="$1" line ver
  [[ -x "$java_bin" ]] || return 0
  line="$("$java_bin" -version 2>&1 | grep -m1 -E 'version "' || true)"
  ver="${line#*version \"}"
  ver="${ver%%\"*}"
  [[ -n "$ver" && "$ver" != "$line" ]] || return 0
  if [[ "$ver" == 1.* ]]; then
    ver="${ver#1.}"
  fi
  ver="${ver%%[.+-]*}"
  [[ "$ver" =~ ^[0-9]+$ ]] && printf '%s\n' "$ver"
}

# A usable JDK home: bin/java >= min and bin/javac present (the helpers compile a small
# Java file). Prints the major version on success.
_jdk_ok() {
  local home="$1" min="$2" major
  [[ -x "$home/bin/java" && -x "$home/bin/javac" ]] || return 1
  major="$(_java_major "$home/bin/java")"
  [[ -n "$major" && "$major" -ge "$min" ]] || return 1
  printf '%s\n' "$major"
}

# Exports JAVA_HOME and PATH for a JDK >= 21 (override the minimum with $1).
# Order: $JAVA_HOME, then `java` on PATH, then the newest JDK under /usr/lib/jvm.
# Also exports JAVA_MAJOR (e.g. 25).
find_java() {
  local min="${1:-21}" major home best_home="" best_major=0 java_on_path d
  # Already chosen by a parent script (exported): reuse without re-probing.
  if [[ -n "${_FOUND_JAVA_HOME:-}" && "${JAVA_HOME:-}" == "$_FOUND_JAVA_HOME" && -n "${JAVA_MAJOR:-}" ]]; then
    return 0
  fi
  if [[ -n "${JAVA_HOME:-}" ]] && major="$(_jdk_ok "$JAVA_HOME" "$min")"; then
    best_home="$JAVA_HOME" best_major="$major"
  elif java_on_path="$(command -v java 2>/dev/null)" &&
    home="$(dirname "$(dirname "$(readlink -f "$java_on_path")")")" &&
    major="$(_jdk_ok "$home" "$min")"; then
    best_home="$home" best_major="$major"
  else
    for d in /usr/lib/jvm/*/; do
      d="${d%/}"
      [[ -L "$d" ]] && continue # Debian alias symlinks point at the real dirs
      if major="$(_jdk_ok "$d" "$min")" && [[ "$major" -gt "$best_major" ]]; then
        best_home="$d" best_major="$major"
      fi
    done
  fi
  if [[ -z "$best_home" ]]; then
    die "no JDK $min+ found (checked JAVA_HOME, java on PATH, /usr/lib/jvm): install a JDK 21 or newer (e.g. apt-get install openjdk-21-jdk or Temurin 21+) and set JAVA_HOME"
  fi
  export JAVA_HOME="$best_home"
  export PATH="$JAVA_HOME/bin:$PATH"
  export _FOUND_JAVA_HOME="$JAVA_HOME"
  export JAVA_MAJOR="$best_major"
  step "java: using JDK $best_major at $JAVA_HOME"
}

# --- Waiting ----------------------------------------------------------------

# port_open HOST PORT: true when a TCP connection succeeds.
port_open() {
  # shellcheck disable=SC2016 # expanded by the inner bash
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
}

# wait_port HOST PORT TIMEOUT_S
wait_port() {
  local host="$1" port="$2" timeout_s="${3:-30}" deadline
  deadline=$((SECONDS + timeout_s))
  until port_open "$host" "$port"; do
    if ((SECONDS >= deadline)); then
      return 1
    fi
    sleep 0.3
  done
}

# wait_http URL TIMEOUT_S: polls until the URL answers HTTP 200.
wait_http() {
  local url="$1" timeout_s="${2:-60}" deadline code
  deadline=$((SECONDS + timeout_s))
  while :; do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$url" 2>/dev/null || true)"
    [[ "$code" == 200 ]] && return 0
    if ((SECONDS >= deadline)); then
      return 1
    fi
    sleep 0.5
  done
}

# --- Background processes ---------------------------------------------------
#
# start_bg writes PIDFILE (just the pid, so other tools can read it) and PIDFILE.cmd
# (the exact command line). stop_pidfile only signals a pid whose /proc/<pid>/cmdline
# still equals PIDFILE.cmd, so a stale pid reused by an unrelated process is never
# killed. For pid files written by other tools (no .cmd sidecar) it requires the
# process's command line or working directory to reference $REPO_ROOT.

# pid_alive PID: the process exists and is not a zombie.
pid_alive() {
  local state
  [[ -n "${1:-}" && "$1" =~ ^[0-9]+$ ]] && kill -0 "$1" 2>/dev/null || return 1
  state="$(sed -E 's/^.*\) ([A-Za-z]).*$/\1/' "/proc/$1/stat" 2>/dev/null || true)"
  [[ "$state" != Z ]]
}

_cmdline_of() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | sed 's/ $//'; }

# _pid_matches PID PIDFILE: the live process is the one the pid file describes.
_pid_matches() {
  local pid="$1" pidfile="$2" actual cwd
  pid_alive "$pid" || return 1
  actual="$(_cmdline_of "$pid")"
  if [[ -f "$pidfile.cmd" ]]; then
    [[ "$actual" == "$(cat "$pidfile.cmd")" ]]
  else
    cwd="$(readlink "/proc/$pid/cwd" 2>/dev/null || true)"
    [[ "$actual" == *"$REPO_ROOT"* || "$cwd" == "$REPO_ROOT" || "$cwd" == "$REPO_ROOT"/* ]]
  fi
}

# pidfile_running PIDFILE: true if the pid file names a live process we started.
pidfile_running() {
  local pidfile="$1" pid
  [[ -f "$pidfile" ]] || return 1
  pid="$(head -n1 "$pidfile" 2>/dev/null || true)"
  _pid_matches "$pid" "$pidfile"
}

# start_bg NAME PIDFILE LOGFILE cmd...: starts cmd detached (own session, immune to
# SIGHUP, stdin from /dev/null, stdout+stderr appended to LOGFILE) and writes PIDFILE.
start_bg() {
  local name="$1" pidfile="$2" logfile="$3" pid
  shift 3
  (($# > 0)) || die "start_bg $name: no command given"
  mkdir -p "$(dirname "$pidfile")" "$(dirname "$logfile")"
  if pidfile_running "$pidfile"; then
    die "$name: already running (pid $(head -n1 "$pidfile")); stop it first"
  fi
  printf '\n==== %s: starting %s at %s\n' "$name" "$*" "$(date -Is)" >>"$logfile"
  # The subshell is not a process-group leader, so setsid execs in place (same pid). Descriptors above 2
  # are closed first: a long-lived server must not inherit, say, a build lock held by whoever started it.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd="${fd##*/}"
      ((fd > 2)) && eval "exec $fd>&-" 2>/dev/null
    done
    exec setsid nohup "$@" </dev/null >>"$logfile" 2>&1
  ) &
  pid=$!
  printf '%s\n' "$pid" >"$pidfile"
  printf '%s\n' "$*" >"$pidfile.cmd"
  # Give exec a moment so /proc/<pid>/cmdline shows the real command, then check it.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    [[ "$(_cmdline_of "$pid")" == "$*" ]] && break
    pid_alive "$pid" || break
    sleep 0.05
  done
  if ! pid_alive "$pid"; then
    rm -f "$pidfile" "$pidfile.cmd"
    die "$name: exited immediately; see $logfile"
  fi
  # shellcheck disable=SC2034 # read by the caller
  STARTED_PID="$pid"
}

# stop_pidfile PIDFILE [NAME]: TERM, wait up to 20 s, then KILL; removes the pid file.
# Stale or foreign pids are ignored (file removed). Returns 0 if something was stopped
# or nothing needed stopping.
stop_pidfile() {
  local pidfile="$1" name="${2:-$(basename "${1%.pid}")}" pid target deadline
  if [[ ! -f "$pidfile" ]]; then
    step "$name: not running (no pid file)"
    return 0
  fi
  pid="$(head -n1 "$pidfile" 2>/dev/null || true)"
  if ! pid_alive "$pid"; then
    step "$name: not running (stale pid file, pid ${pid:-?}); removed it"
    rm -f "$pidfile" "$pidfile.cmd"
    return 0
  fi
  if ! _pid_matches "$pid" "$pidfile"; then
    step "$name: pid $pid now belongs to another program; not touching it, removed stale pid file"
    rm -f "$pidfile" "$pidfile.cmd"
    return 0
  fi
  # Signal the whole process group when the pid leads its own (start_bg uses setsid),
  # so helper children (e.g. a forked dev-mode JVM) go too.
  target="$pid"
  if [[ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" == "$pid" ]]; then
    target="-$pid"
  fi
  local ran # seconds since the process started, read before it is told to stop
  ran=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
  kill -TERM -- "$target" 2>/dev/null || true
  # A JVM started with -XX:AOTCacheOutput (deploy/local/start, the first run of a build on JDK 25+) writes its AOT
  # cache after it stopped, in a second JVM: 10-20 s on two cores, longer when several write at once. Killing it
  # there would waste the cache (deploy/local/start throws away one cut short), so it gets longer.
  local grace=20
  if grep -q -- '-XX:AOTCacheOutput=' "$pidfile.cmd" 2>/dev/null; then
    grace=180
    step "$name: stopping; it writes its AOT cache first (once per build, up to a minute)"
    # The cache holds the classes (and method profiles) of what this run did until now. A run stopped right after its
    # start leaves out what a service loads once it works (its consumers' first records, its jobs' first runs, its
    # first requests): those classes come from the jars at every later start, into metaspace. transaction-service's
    # cache was 138 MB after a run stopped 2 s after it was ready and 160 MB after 40 s, and its metaspace after the
    # benchmark 29 MiB against 16 (docs/performance.md, fifty-fifth step).
    if [[ -n "$ran" ]] && ((ran < 45)); then
      warn "$name: its AOT cache records a run of only ${ran} s; for a complete one let the first run after a build" \
        "work a minute before stopping it (delete $STATE_DIR/cds/$(basename "${pidfile%.pid}")-*.aot to record again)"
    fi
  fi
  deadline=$((SECONDS + grace))
  while pid_alive "$pid" && ((SECONDS < deadline)); do
    sleep 0.2
  done
  if pid_alive "$pid"; then
    warn "$name: pid $pid still alive after $grace s; sending KILL"
    kill -KILL -- "$target" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pidfile" "$pidfile.cmd"
  step "$name: stopped (pid $pid)"
}

# --- Tokens -----------------------------------------------------------------

# jwt_rs256 KEYFILE HEADER_JSON PAYLOAD_JSON: prints a compact RS256 JWT signed with the PEM private key.
jwt_rs256() {
  local key="$1" header="$2" payload="$3" input signature
  command -v openssl >/dev/null || die "openssl not found; apt-get install openssl"
  [[ -r "$key" ]] || die "missing $key (it is committed in git; restore it with git checkout)"
  input="$(printf '%s' "$header" | _b64url).$(printf '%s' "$payload" | _b64url)"
  signature="$(printf '%s' "$input" | openssl dgst -sha256 -sign "$key" -binary | _b64url)"
  [[ -n "$signature" ]] || die "signing with $key failed"
  printf '%s.%s\n' "$input" "$signature"
}

_b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# identity_token --role R --key-type T --account A [--merchant M] [--merchant-ref REF] [--lifetime S]: prints the
# identity token gateway-service would mint for a caller (TokenMinter's claims: issuer, audience, subject "bench",
# the role as its one group, key_type, acct, and mid and mid_ref when given), signed with the local development key
# and valid S seconds (900 unless given: long enough for a benchmark's phase; the gateway's own live 60 s and are
# signed anew as they age). The benchmarks send it to call a service directly.
identity_token() {
  local role="" key_type="" account="" merchant="" ref="" lifetime=900 now claims
  while (($#)); do
    (($# >= 2)) || die "identity_token: $1 needs a value"
    case "$1" in
      --role) role="$2" ;;
      --key-type) key_type="$2" ;;
      --account) account="$2" ;;
      --merchant) merchant="$2" ;;
      --merchant-ref) ref="$2" ;;
      --lifetime) lifetime="$2" ;;
      *) die "identity_token: unknown option $1" ;;
    esac
    shift 2
  done
  [[ -n "$role" && -n "$key_type" && -n "$account" ]] || die "identity_token: --role, --key-type and --account are required"
  now=$(date +%s)
  claims=$(printf '{"iss":"cryptopay-gateway","aud":"cryptopay-services","sub":"bench","upn":"bench","groups":["%s"],"key_type":"%s","acct":"%s"' \
    "$role" "$key_type" "$account")
  [[ -z "$merchant" ]] || claims+=$(printf ',"mid":"%s"' "$merchant")
  [[ -z "$ref" ]] || claims+=$(printf ',"mid_ref":"%s"' "$ref")
  claims+=$(printf ',"iat":%d,"exp":%d}' "$now" "$((now + lifetime))")
  jwt_rs256 "$LOCAL_DIR/keys/local-dev-internal-private.pem" '{"alg":"RS256","typ":"JWT"}' "$claims"
}
