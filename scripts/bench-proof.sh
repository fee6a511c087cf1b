#!/usr/bin/env bash
# The proof under load, with figures: games played move by move through the HTTP API on
# the boards of Swiss events (`damka-load --play-games --in-events`), then every game read
# back and checked (`--verify`: no acknowledged move missing, every game replays legally,
# every finished game's result on its board). Scenarios, each on a fresh database:
#
#   steady     one instance, SQLite and PostgreSQL
#   kill       one instance killed with SIGKILL a third into the run and restarted on the
#              same port (the load goes on through the outage), SQLite and PostgreSQL
#   instances  three instances on one PostgreSQL database, the games spread over them
#   pg-crash   two instances on a private PostgreSQL server (initdb/pg_ctl on PG_PRIVATE_PORT)
#              that is stopped with `pg_ctl -m immediate` (a crash) a third into the run and
#              started again two seconds later; the instances reconnect by themselves
#
#   scripts/bench-proof.sh                         # all scenarios, 16 games, 60 s each
#   SCENARIOS="steady kill" DURATION=20s scripts/bench-proof.sh
#
# Environment:
#   GAMES=16 DURATION=60s SEED=1                   load shape (GAMES boards = 2 x GAMES players)
#   SCENARIOS="steady kill instances pg-crash"     which scenarios
#   DATABASES="sqlite postgres"                    for steady and kill
#   PROFILE=release|quick-release|debug            which build to run (default release)
#   PORT=18451                                     first loopback port (three are used)
#   PG_URL=postgres://postgres@127.0.0.1:5432      PostgreSQL (trust auth) for the shared
#                                                  server's scenarios; databases are dropped
#   PG_PRIVATE_PORT=18459                          the private server of pg-crash
#   NO_BUILD=1 KEEP_LOGS=1 CARGO_TARGET_DIR        as in scripts/bench-http.sh
set -euo pipefail

cd "$(dirname "$0")/.."
# Every client of a benchmark is 127.0.0.1, so the server's caps per address (256
# connections, 64 live streams by default) would refuse the load itself: lift them for
# the servers started here, unless set already.
export DAMKA_MAX_CONNECTIONS_PER_ADDRESS=${DAMKA_MAX_CONNECTIONS_PER_ADDRESS:-20000}
export DAMKA_MAX_STREAMS_PER_ADDRESS=${DAMKA_MAX_STREAMS_PER_ADDRESS:-20000}
ROOT=$(pwd)
GAMES=${GAMES:-16}
DURATION=${DURATION:-60s}
SEED=${SEED:-1}
SCENARIOS=${SCENARIOS:-steady kill instances pg-crash}
DATABASES=${DATABASES:-sqlite postgres}
PORT=${PORT:-18451}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
PG_PRIVATE_PORT=${PG_PRIVATE_PORT:-18459}
PROFILE=${PROFILE:-release}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$PROFILE" in
  release) build_flags=(--release) ;;
  debug) build_flags=() ;;
  quick-release) build_flags=(--profile quick-release) ;;
  *) echo "PROFILE must be release, quick-release or debug" >&2; exit 2 ;;
esac
DAMKA=$TARGET_DIR/$PROFILE/damka
LOAD=$TARGET_DIR/$PROFILE/damka-load
for tool in curl jq psql column; do
  command -v "$tool" >/dev/null || { echo "bench-proof: needs $tool" >&2; exit 2; }
done
seconds=${DURATION%s}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "bench-proof: DURATION must be whole seconds, e.g. 60s" >&2; exit 2; }

if [[ -z ${NO_BUILD:-} ]]; then
  echo "== building $PROFILE binaries (damka, damka-load)"
  cargo build "${build_flags[@]}" --bin damka --bin damka-load
fi
for binary in "$DAMKA" "$LOAD"; do
  [[ -x $binary ]] || { echo "bench-proof: $binary is missing (build it or drop NO_BUILD)" >&2; exit 2; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-proof.XXXXXX")
SERVER_PIDS=()
PG_DATABASES=()
PRIVATE_DATA=
AS_POSTGRES=()
[[ $(id -u) == 0 ]] && AS_POSTGRES=(runuser -u postgres --)
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 "$PG_URL/postgres" "$@"; }

stop_servers() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PIDS=()
}

pg_tool() { # program args...: a PostgreSQL server program, as the postgres user when root
  local program=$1; shift
  "${AS_POSTGRES[@]}" "$PG_BIN/$program" "$@"
}

cleanup() {
  stop_servers
  local db
  for db in "${PG_DATABASES[@]}"; do
    psql_admin -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
  done
  if [[ -n $PRIVATE_DATA ]]; then
    pg_tool pg_ctl -D "$PRIVATE_DATA" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [[ -n ${KEEP_LOGS:-} ]]; then
    echo "bench-proof: logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_server() { # name port url
  local name=$1 port=$2 url=$3 pid
  (cd "$WORK" && exec "$DAMKA" serve --bind "127.0.0.1:$port" --database-url "$url" \
    >>"$WORK/$name.log" 2>&1) &
  pid=$!
  SERVER_PIDS+=("$pid")
  LAST_PID=$pid
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { echo "bench-proof: $name exited (see $WORK/$name.log)" >&2; exit 1; }
    curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" && return 0
    sleep 0.2
  done
  echo "bench-proof: $name did not become healthy in 60 s" >&2
  exit 1
}

new_database() { # kind -> prints the URL
  local kind=$1 name
  case "$kind" in
    sqlite) echo "sqlite://$WORK/proof-$RANDOM$RANDOM.db" ;;
    postgres)
      name=damka_proof_$$_$RANDOM
      psql_admin -c "CREATE DATABASE $name" >&2
      PG_DATABASES+=("$name")
      echo "$PG_URL/$name" ;;
  esac
}

admin_password() { # url
  ADMIN_EMAIL=proof@damka.test
  ADMIN_PASSWORD=$("$DAMKA" admin create --email "$ADMIN_EMAIL" --database-url "$1" | sed -n 's/^password: //p')
  [[ -n $ADMIN_PASSWORD ]] || { echo "bench-proof: damka admin create printed no password" >&2; exit 1; }
}

run_load() { # name outage(0/1) ports...
  local name=$1 outage=$2; shift 2
  local args=(--url "http://127.0.0.1:$1/" --login "$ADMIN_EMAIL:$ADMIN_PASSWORD"
    --play-games "$GAMES" --in-events --verify --seed "$SEED" --duration "$DURATION"
    --timeout 5s --json)
  shift
  local port
  for port in "$@"; do args+=(--also-url "http://127.0.0.1:$port/"); done
  [[ $outage == 1 ]] && args+=(--expect-outage)
  "$LOAD" "${args[@]}" >"$WORK/$name.json" 2>"$WORK/$name.load.log" &
  LOAD_PID=$!
}

finish_load() { # name scenario database instances
  local name=$1 status=0
  wait "$LOAD_PID" || status=$?
  [[ -s $WORK/$name.json ]] || { echo "bench-proof: damka-load printed nothing for $name:" >&2; cat "$WORK/$name.load.log" >&2; exit 1; }
  jq -r --arg s "$2" --arg d "$3" --arg i "$4" '[$s, $d, $i, .moves, .moves_per_sec, .latency_ms.p50,
      .latency_ms.p99, (.non_201_or_failed + .other_errors), .games_finished, .events,
      .verify.acknowledged_moves, .verify.plies_replayed, .verify.games,
      (.verify.acknowledged_missing.count + .verify.illegal_games.count
       + .verify.wrong_status.count + .verify.results_missing.count
       + .verify.unreadable.count), (if .ok then "ok" else "FAILED" end)] | join("|")' \
    "$WORK/$name.json" >>"$WORK/table"
  if [[ $status != 0 || $(jq -r .ok "$WORK/$name.json") != true ]]; then
    echo "bench-proof: $name failed (exit $status)" >&2
    jq -c '{first_errors, verify}' "$WORK/$name.json" >&2
    FAILED=1
  fi
}

steady() { # database
  local url; url=$(new_database "$1")
  admin_password "$url"
  start_server "steady-$1" "$PORT" "$url"
  echo "== steady, $1: $GAMES games for $DURATION"
  run_load "steady-$1" 0 "$PORT"
  finish_load "steady-$1" steady "$1" 1
  stop_servers
}

kill_scenario() { # database
  local url; url=$(new_database "$1")
  admin_password "$url"
  start_server "kill-$1" "$PORT" "$url"
  echo "== kill, $1: SIGKILL after $((seconds / 3)) s, restarted on the same port"
  run_load "kill-$1" 1 "$PORT"
  sleep $((seconds / 3))
  kill -KILL "$LAST_PID"
  wait "$LAST_PID" 2>/dev/null || true
  start_server "kill-$1-restarted" "$PORT" "$url"
  finish_load "kill-$1" "kill -9" "$1" 1
  stop_servers
}

instances() {
  local url; url=$(new_database postgres)
  admin_password "$url"
  start_server instance-1 "$PORT" "$url"
  start_server instance-2 "$((PORT + 1))" "$url"
  start_server instance-3 "$((PORT + 2))" "$url"
  echo "== three instances on one PostgreSQL database"
  run_load instances 0 "$PORT" "$((PORT + 1))" "$((PORT + 2))"
  finish_load instances "3 instances" postgres 3
  stop_servers
}

pg_crash() {
  PG_BIN=$(dirname "$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
  mkdir -p "$WORK/pg"
  [[ $(id -u) == 0 ]] && chown postgres "$WORK" "$WORK/pg"
  PRIVATE_DATA=$WORK/pg/data
  pg_tool initdb -D "$PRIVATE_DATA" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
  local options="-p $PG_PRIVATE_PORT -c listen_addresses=127.0.0.1 -k $WORK/pg"
  pg_tool pg_ctl -D "$PRIVATE_DATA" -l "$WORK/pg/log" -o "$options" -w start >/dev/null
  local url=postgres://postgres@127.0.0.1:$PG_PRIVATE_PORT/postgres
  admin_password "$url"
  start_server crash-1 "$PORT" "$url"
  start_server crash-2 "$((PORT + 1))" "$url"
  echo "== PostgreSQL crashed after $((seconds / 3)) s and started again 2 s later"
  run_load pg-crash 1 "$PORT" "$((PORT + 1))"
  sleep $((seconds / 3))
  pg_tool pg_ctl -D "$PRIVATE_DATA" -m immediate stop >/dev/null
  sleep 2
  pg_tool pg_ctl -D "$PRIVATE_DATA" -l "$WORK/pg/log" -o "$options" -w start >/dev/null
  finish_load pg-crash "PostgreSQL crash" postgres 2
  stop_servers
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
FAILED=
echo "scenario|database|instances|moves|moves/s|p50 ms|p99 ms|refused or failed|games finished|events|acknowledged checked|plies replayed|games checked|problems|verdict" >"$WORK/table"
for scenario in $SCENARIOS; do
  case "$scenario" in
    steady) for db in $DATABASES; do steady "$db"; done ;;
    kill) for db in $DATABASES; do kill_scenario "$db"; done ;;
    instances) instances ;;
    pg-crash) pg_crash ;;
    *) echo "bench-proof: unknown scenario $scenario" >&2; exit 2 ;;
  esac
done

echo
echo "damka proof under load: $GAMES games at once on Swiss event boards, $DURATION per scenario, loopback, $PROFILE build"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "damka $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
column -t -s '|' "$WORK/table"
[[ -z $FAILED ]] || exit 1
