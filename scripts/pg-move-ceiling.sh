#!/usr/bin/env bash
# What PostgreSQL alone can do per move on this machine: pgbench runs the two statements a
# move costs PostgreSQL (see pg-move-ceiling/move.sql) against tables shaped like damka's,
# with no HTTP, JSON or engine at all. The figure bounds what `scripts/bench-http.sh` can
# reach on PostgreSQL on the same machine (README, "Games: moves over HTTP").
#
#   scripts/pg-move-ceiling.sh              # 8 and 32 clients, 10 s each
#   PG_URL=postgres://postgres@127.0.0.1:5432 CLIENTS="8 32" DURATION=10 scripts/pg-move-ceiling.sh
set -euo pipefail
cd "$(dirname "$0")/pg-move-ceiling"
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-8 32}
DURATION=${DURATION:-10}
DB=damka_move_ceiling_$$
command -v pgbench >/dev/null || { echo "pg-move-ceiling: needs pgbench" >&2; exit 2; }
psql "$PG_URL/postgres" -qc "CREATE DATABASE $DB"
trap 'psql "$PG_URL/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)"' EXIT
psql "$PG_URL/$DB" -q -f setup.sql 2>&1 | grep -v NOTICE || true
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for clients in $CLIENTS; do
  tps=$(pgbench "$PG_URL/$DB" -n -M prepared -c "$clients" -j 2 -T "$DURATION" -f move.sql 2>&1 \
    | awk '/^tps/ {print $3}')
  echo "$clients clients: $tps moves/s"
done
