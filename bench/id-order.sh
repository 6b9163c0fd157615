#!/usr/bin/env bash
# Why the rows every payment adds have time-ordered ids (docs/decisions.md §128): single-row inserts into a table of
# --rows rows keyed by a random (version 4) UUID against one keyed by a time-ordered (version 7) UUID, each run
# starting right after a CHECKPOINT, as a run of creations may. Per insert it prints the full-page images and the WAL
# bytes the server wrote (pg_stat_wal) and the rate (pgbench, --clients clients, --duration each), --rounds times.
# After a checkpoint PostgreSQL logs a whole page the first time it changes: a random key changes a different page
# of the index with nearly every insert until all have changed once; a time-ordered key changes the index's last
# page. The version 7 ids are made in SQL as RFC 9562 lays them out (PostgreSQL 15 has no function for them; the
# services use event-contracts' TimeOrderedIds).
#
#   bench/id-order.sh [--rows 1000000] [--clients 16] [--duration 15] [--rounds 2]
#
# Needs: PostgreSQL on 127.0.0.1:5432 (deploy/local/up or a server already there; user postgres, trust auth) and
# pgbench. Works in a scratch database id_order_scratch, dropped at the end. Run nothing else meanwhile.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. deploy/local/lib.sh

rows=1000000 clients=16 duration=15 rounds=2
while (($# > 0)); do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --duration) duration="${2%s}"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) die "unknown argument: $1 (bench/id-order.sh [--rows N] [--clients N] [--duration S] [--rounds N])" ;;
  esac
done
for n in "$rows" "$clients" "$duration" "$rounds"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "each option takes a whole number of at least 1, not '$n'"
done
command -v pgbench >/dev/null || die "pgbench is missing (Debian: apt-get install postgresql-client)"
port_open 127.0.0.1 5432 || die "no PostgreSQL on 127.0.0.1:5432: start one (deploy/local/up)"

db=id_order_scratch
sql() { psql -h 127.0.0.1 -U postgres -d "$db" -qAtX -v ON_ERROR_STOP=1 "$@"; }
work=$(mktemp -d)
cleanup() {
  rm -rf "$work"
  psql -h 127.0.0.1 -U postgres -qAtX -c "drop database if exists $db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# RFC 9562 version 7: 48 bits of Unix milliseconds, the version (0111), then random bits with the variant (10).
v7="encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from \
clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid"
declare -A key=([v4]="gen_random_uuid()" [v7]="$v7")

step "scratch database $db: two tables of $rows rows each, keyed by version 4 and by version 7 UUIDs"
psql -h 127.0.0.1 -U postgres -qAtX -c "drop database if exists $db" -c "create database $db" >/dev/null
for kind in v4 v7; do
  sql -c "create table t_$kind (id uuid primary key, amount numeric(20, 8), note text, created_at timestamptz)"
  sql -c "insert into t_$kind select ${key[$kind]}, random() * 1000, 'preloaded row', now()
          from generate_series(1, $rows)"
  sql -c "vacuum analyze t_$kind"
  echo "insert into t_$kind values (${key[$kind]}, random() * 1000, 'benchmark row', now());" >"$work/$kind.sql"
done
[[ "$(sql -c "select count(*) from t_v7 where substr(id::text, 15, 1) <> '7'")" == 0 ]] || die "not version 7 ids"

printf '\n%-6s %-4s %10s %10s %16s %20s\n' round key inserts "per second" "FPIs per insert" "WAL bytes per insert"
for ((round = 1; round <= rounds; round++)); do
  for kind in v4 v7; do
    sql -c "checkpoint"
    read -r fpi0 bytes0 < <(sql -F' ' -c "select wal_fpi, wal_bytes from pg_stat_wal")
    out=$(pgbench -n -h 127.0.0.1 -U postgres -c "$clients" -j 2 -T "$duration" -f "$work/$kind.sql" "$db" 2>&1) \
      || die "pgbench failed: $out"
    read -r fpi1 bytes1 < <(sql -F' ' -c "select wal_fpi, wal_bytes from pg_stat_wal")
    n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
    tps=$(sed -n 's/^tps = \([0-9]*\)\..*/\1/p' <<<"$out")
    printf '%-6s %-4s %10s %10s %16.2f %20.0f\n' "$round" "$kind" "$n" "$tps" \
      "$(bc -l <<<"($fpi1 - $fpi0) / $n")" "$(bc -l <<<"($bytes1 - $bytes0) / $n")"
  done
done
