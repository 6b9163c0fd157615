#!/usr/bin/env bash
# Local PostgreSQL for development and tests.
#
#   deploy/local/postgres.sh up [--reset-test-dbs]   reuse or start a server, ensure role + databases
#   deploy/local/postgres.sh down                     stop the server only if these scripts started it
#   deploy/local/postgres.sh status
#   deploy/local/postgres.sh analyze                  where autovacuum is off: ANALYZE the run databases (up does it)
#   deploy/local/postgres.sh checkpoint               CHECKPOINT now (bench/payment-path.sh, before each judged run)
#
# Role `payments` / password `payments` (LOCAL DEVELOPMENT credential only).
# Databases (owner payments): <svc> (run), <svc>_test (per-service @QuarkusTest), <svc>_it
# (system tests) for svc in gateway merchant transaction subscription webhook reporting; and support_test for
# service-support's own Quarkus tests (the outbox and inbox on a real database).
# --reset-test-dbs drops and recreates every *_test and *_it database (never the run ones).
#
# Env overrides (defaults in brackets): LOCAL_PG_PORT [5432], LOCAL_PG_CLUSTER [main].
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PG_HOST=127.0.0.1
PG_PORT="${LOCAL_PG_PORT:-5432}"
PG_CLUSTER="${LOCAL_PG_CLUSTER:-main}"
PG_STARTED_MARK="$STATE_DIR/postgres.started"
APP_ROLE=payments
APP_PASSWORD=payments # local development credential, never used outside this machine
SERVICES=(gateway merchant transaction subscription webhook reporting)
# Shared modules with Quarkus tests of their own: a <name>_test database each, nothing else.
LIBRARIES=(support)

usage() {
  cat <<EOF
usage: $0 up [--reset-test-dbs] | down | status | analyze | checkpoint
EOF
}

pg_answers() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 3 >/dev/null 2>&1; }

# Runs psql as a superuser, SQL on stdin. Tries TCP as postgres (trust), then the local
# socket as the postgres OS user (runuser / sudo / su).
PSQL_MODE=""
pg_super() {
  local opts=(-X -q -At -v ON_ERROR_STOP=1 -d postgres)
  if [[ -z "$PSQL_MODE" ]]; then
    if PGCONNECT_TIMEOUT=3 psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -w "${opts[@]}" -c 'select 1' >/dev/null 2>&1; then
      PSQL_MODE=tcp
    elif [[ "$(id -un)" == postgres ]]; then
      PSQL_MODE=self
    elif [[ "$(id -u)" == 0 ]] && command -v runuser >/dev/null; then
      PSQL_MODE=runuser
    elif command -v sudo >/dev/null && sudo -n -u postgres true 2>/dev/null; then
      PSQL_MODE=sudo
    elif [[ "$(id -u)" == 0 ]]; then
      PSQL_MODE=su
    else
      die "postgres: cannot connect as superuser: allow trust for postgres on $PG_HOST:$PG_PORT, or run as root / with sudo rights for the postgres user"
    fi
  fi
  case "$PSQL_MODE" in
    tcp) psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -w "${opts[@]}" ;;
    self) psql -p "$PG_PORT" "${opts[@]}" ;;
    runuser) (cd / && runuser -u postgres -- psql -p "$PG_PORT" "${opts[@]}") ;;
    sudo) (cd / && sudo -n -u postgres psql -p "$PG_PORT" "${opts[@]}") ;;
    su) (cd / && su postgres -s /bin/sh -c "psql -p $PG_PORT ${opts[*]}") ;;
  esac
}

newest_pg_version() {
  local v best=""
  for v in /usr/lib/postgresql/*/bin/postgres; do
    [[ -x "$v" ]] || continue
    v="${v#/usr/lib/postgresql/}"
    v="${v%%/*}"
    if [[ -z "$best" || "$v" -gt "$best" ]]; then best="$v"; fi
  done
  printf '%s' "$best"
}

# Make sure 127.0.0.1 may connect with a password (or trust) in a cluster we start.
ensure_hba() {
  local ver="$1" hba="/etc/postgresql/$1/$PG_CLUSTER/pg_hba.conf"
  [[ -f "$hba" ]] || return 0
  if grep -Eq '^[[:space:]]*host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+(trust|md5|scram-sha-256)' "$hba"; then
    return 0
  fi
  step "postgres: adding 'host all all 127.0.0.1/32 scram-sha-256' to $hba"
  sed -i '1i host all all 127.0.0.1/32 scram-sha-256  # added by deploy/local/postgres.sh' "$hba"
}

start_server() {
  local ver port
  if ! command -v pg_ctlcluster >/dev/null; then
    step "postgres: nothing on $PG_HOST:$PG_PORT and no pg_ctlcluster; installing postgresql (apt-get)"
    [[ "$(id -u)" == 0 ]] || die "postgres: need root to apt-get install postgresql (or start a PostgreSQL 15+ on $PG_HOST:$PG_PORT yourself)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  ver="$(newest_pg_version)"
  [[ -n "$ver" ]] || die "postgres: no PostgreSQL server binaries under /usr/lib/postgresql; apt-get install postgresql"
  if [[ ! -d "/etc/postgresql/$ver/$PG_CLUSTER" ]]; then
    step "postgres: creating cluster $ver/$PG_CLUSTER on port $PG_PORT"
    pg_createcluster "$ver" "$PG_CLUSTER" -p "$PG_PORT" >/dev/null
  fi
  port="$(pg_conftool -s "$ver" "$PG_CLUSTER" show port 2>/dev/null || true)"
  if [[ -n "$port" && "$port" != "$PG_PORT" ]]; then
    die "postgres: cluster $ver/$PG_CLUSTER is configured for port $port, not $PG_PORT; set port = $PG_PORT in /etc/postgresql/$ver/$PG_CLUSTER/postgresql.conf or start a server on $PG_HOST:$PG_PORT"
  fi
  ensure_hba "$ver"
  if pg_ctlcluster "$ver" "$PG_CLUSTER" status >/dev/null 2>&1; then
    # Running but not answering on 127.0.0.1 (e.g. listen_addresses): don't take it over.
    die "postgres: cluster $ver/$PG_CLUSTER runs but $PG_HOST:$PG_PORT does not answer; check listen_addresses/port in /etc/postgresql/$ver/$PG_CLUSTER/postgresql.conf"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$PG_CLUSTER" start ||
    die "postgres: pg_ctlcluster $ver $PG_CLUSTER start failed; see /var/log/postgresql/postgresql-$ver-$PG_CLUSTER.log"
  mkdir -p "$STATE_DIR"
  printf '%s %s\n' "$ver" "$PG_CLUSTER" >"$PG_STARTED_MARK"
  wait_port "$PG_HOST" "$PG_PORT" 30 || die "postgres: started cluster $ver/$PG_CLUSTER but $PG_HOST:$PG_PORT does not answer after 30 s; see /var/log/postgresql/postgresql-$ver-$PG_CLUSTER.log"
  for _ in $(seq 1 60); do pg_answers && break; sleep 0.5; done
  pg_answers || die "postgres: $PG_HOST:$PG_PORT not ready after 30 s; see /var/log/postgresql/postgresql-$ver-$PG_CLUSTER.log"
  step "postgres: started cluster $ver/$PG_CLUSTER on $PG_HOST:$PG_PORT (down will stop it)"
}

sql_db_list() {
  local suffix="$1" s out=""
  for s in "${SERVICES[@]}"; do out+="${out:+,}'${s}${suffix}'"; done
  if [[ "$suffix" == _test ]]; then
    for s in "${LIBRARIES[@]}"; do out+=",'${s}${suffix}'"; done
  fi
  printf '%s' "$out"
}

ensure_role_and_dbs() {
  local reset="$1" all_dbs test_dbs
  all_dbs="$(sql_db_list ''),$(sql_db_list _test),$(sql_db_list _it)"
  test_dbs="$(sql_db_list _test),$(sql_db_list _it)"
  {
    cat <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$APP_ROLE') THEN
    CREATE ROLE $APP_ROLE LOGIN PASSWORD '$APP_PASSWORD';
  END IF;
END
\$\$;
ALTER ROLE $APP_ROLE LOGIN PASSWORD '$APP_PASSWORD';
SQL
    if [[ "$reset" == 1 ]]; then
      # WITH (FORCE) disconnects leftover sessions (PostgreSQL 13+).
      cat <<SQL
SELECT format('DROP DATABASE %I WITH (FORCE)', datname)
  FROM pg_database WHERE datname IN ($test_dbs) ORDER BY datname
\\gexec
SQL
    fi
    cat <<SQL
SELECT format('CREATE DATABASE %I OWNER %I', d, '$APP_ROLE')
  FROM unnest(ARRAY[$all_dbs]) AS d
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = d)
\\gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', datname, '$APP_ROLE')
  FROM pg_database
 WHERE datname IN ($all_dbs) AND pg_get_userbyid(datdba) <> '$APP_ROLE'
\\gexec
SQL
  } | pg_super >/dev/null || die "postgres: creating role/databases failed (see the psql error above)"
}

cmd_up() {
  local reset=0 arg version created
  for arg in "$@"; do
    case "$arg" in
      --reset-test-dbs) reset=1 ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "postgres: unknown option $arg" ;;
    esac
  done
  command -v pg_isready >/dev/null || {
    [[ "$(id -u)" == 0 ]] || die "postgres: pg_isready missing; apt-get install postgresql-client"
    step "postgres: installing postgresql-client (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
  }
  if pg_answers; then
    if [[ -f "$PG_STARTED_MARK" ]]; then
      step "postgres: server on $PG_HOST:$PG_PORT already running (started by these scripts: $(cat "$PG_STARTED_MARK"))"
    else
      step "postgres: reusing server on $PG_HOST:$PG_PORT"
    fi
  else
    rm -f "$PG_STARTED_MARK"
    start_server
  fi
  version="$(echo 'SHOW server_version_num' | pg_super)"
  ((version >= 130000)) || die "postgres: server on $PG_HOST:$PG_PORT is older than PostgreSQL 13 ($version); use 15"
  created="$(echo "SELECT count(*) FROM pg_database WHERE datname IN ($(sql_db_list ''),$(sql_db_list _test),$(sql_db_list _it))" | pg_super)"
  ensure_role_and_dbs "$reset"
  step "postgres: role $APP_ROLE ok; databases ok (${#SERVICES[@]} run, $((${#SERVICES[@]} + ${#LIBRARIES[@]})) _test, ${#SERVICES[@]} _it; $((${#SERVICES[@]} * 3 + ${#LIBRARIES[@]} - created)) created)"
  if [[ "$reset" == 1 ]]; then
    step "postgres: test databases reset (*_test, *_it dropped and recreated empty)"
  fi
  [[ "$reset" == 1 ]] || cmd_analyze # the test databases are recreated empty
  # Prove the application credential works over TCP.
  PGPASSWORD="$APP_PASSWORD" PGCONNECT_TIMEOUT=5 psql -X -q -At -h "$PG_HOST" -p "$PG_PORT" -U "$APP_ROLE" -d merchant -c 'select 1' >/dev/null 2>&1 ||
    die "postgres: role $APP_ROLE cannot log in on $PG_HOST:$PG_PORT with its password; allow md5/scram-sha-256 (or trust) for 127.0.0.1/32 in pg_hba.conf and reload"
}

# A server found running is used as it is configured. Without autovacuum nothing analyses the tables: the planner
# then estimates from their size alone and reads whole tables for lookups by a list of ids (an expiry batch's payment
# requests: 84 ms instead of 6 at 157,000 rows; docs/performance.md, twelfth step). So on such a server `up` analyses
# the run databases itself, and bench/payment-path.sh again before it measures; the server's configuration is left
# alone, and nothing removes dead rows here as autovacuum would.
cmd_analyze() {
  local analysed=$SECONDS db
  [[ "$(echo 'SHOW autovacuum' | pg_super)" != on ]] || return 0
  for db in "${SERVICES[@]}"; do printf '\\connect %s\nANALYZE;\n' "$db"; done | pg_super >/dev/null
  step "postgres: autovacuum is off on $PG_HOST:$PG_PORT ($(echo "SELECT coalesce(sourcefile, source) FROM pg_settings WHERE name = 'autovacuum'" | pg_super)): analysed the ${#SERVICES[@]} run databases in $((SECONDS - analysed)) s (docs/performance.md, twelfth step)"
}

# A CHECKPOINT now, waited for. bench/payment-path.sh takes one right before each run it judges, so that no run has a
# checkpoint of its own start in it and every run starts the same distance from one (docs/decisions.md §134).
cmd_checkpoint() {
  local started=$SECONDS
  echo 'CHECKPOINT' | pg_super >/dev/null
  step "postgres: checkpoint on $PG_HOST:$PG_PORT in $((SECONDS - started)) s"
}

cmd_down() {
  local ver cluster
  if [[ ! -f "$PG_STARTED_MARK" ]]; then
    step "postgres: not started by these scripts; leaving the server on $PG_HOST:$PG_PORT alone"
    return 0
  fi
  read -r ver cluster <"$PG_STARTED_MARK"
  if pg_ctlcluster "$ver" "$cluster" status >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$ver" "$cluster" stop -m fast ||
      die "postgres: pg_ctlcluster $ver $cluster stop failed; see /var/log/postgresql/postgresql-$ver-$cluster.log"
    step "postgres: stopped cluster $ver/$cluster (it was started by these scripts)"
  else
    step "postgres: cluster $ver/$cluster already stopped"
  fi
  rm -f "$PG_STARTED_MARK"
}

cmd_status() {
  if pg_answers; then
    step "postgres: up on $PG_HOST:$PG_PORT ($([[ -f "$PG_STARTED_MARK" ]] && echo "started by these scripts" || echo "reused"))"
  else
    step "postgres: nothing answers on $PG_HOST:$PG_PORT"
    return 1
  fi
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    status) cmd_status ;;
    analyze) cmd_analyze ;;
    checkpoint) cmd_checkpoint ;;
    -h | --help | help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
