#!/usr/bin/env bash
# HTTP benchmark of damka on loopback, on SQLite and on PostgreSQL, with `damka-load`
# (backend/bin/damka_load.rs):
#   pages: the home page (GET /), an authenticated API GET (GET /api/v1/me with a bearer
#          token) and the standings tab of a 200-player Swiss after 9 rounds
#          (GET /events/{id}?tab=standings, imported from
#          tests/data/dutch/bench/standings_0200_r9.trf), CONNECTIONS connections each;
#   games: GAMES games of Russian draughts played at once through the JSON API, one
#          keep-alive connection per game (`damka-load --play-games`): every move a
#          POST /api/v1/games/{id}/moves chosen among the legal moves of the previous
#          answer, a finished game replaced by a new one; accepted moves per second and
#          the latency of a move. Each game moves as soon as its last move is answered, so
#          a move waits for the other GAMES - 1 (latency about GAMES / throughput); with
#          GAMES_RATE set, a second run offers that many moves per second in all (each game
#          moving at even intervals) and shows the latency at that load.
#
#   scripts/bench-http.sh            # pages and games, 2 s warm-up, 10 s per run
#   ONLY=games scripts/bench-http.sh # the games run only (200 games)
#
# Environment:
#   ONLY=pages|games                        one part only (default: both)
#   CONNECTIONS=64 DURATION=10s WARMUP=2s   load shape (CONNECTIONS: the pages runs)
#   GAMES=200 SEED=1                        games played at once; seed of the move choices
#   GAMES_RATE=R                            also a paced games run at R moves/s in all
#   PROFILE=release|debug                   which build to run (default release; debug only
#                                           checks that the benchmark still works, as CI does;
#                                           quick-release builds in a few minutes for trying
#                                           a change, its figures are not the release's)
#   SQLITE_PORT=18431 PG_PORT=18432         loopback ports for the two servers
#   PG_URL=postgres://postgres@127.0.0.1:5432   PostgreSQL server (trust auth); a fresh
#                                           database damka_bench_<pid> is created and dropped
#   SKIP_PG=1                               SQLite only
#   SERVER_RUST_LOG=...                     RUST_LOG for the servers (default: theirs, info)
#   WORKERS=N                               damka --workers (default: one per core)
#   SERVER_ARGS="--pool-size 32"            more damka serve/demo options
#   CLIENT_THREADS=1                        damka-load --threads
#   NO_BUILD=1                              use the binaries already built
#   CARGO_TARGET_DIR                        as for cargo (default: ./target)
#
# Everything runs on 127.0.0.1 and stops by itself: each run is bounded by WARMUP +
# DURATION, server start-up by 60 s. Server logs go to a temporary directory that is
# removed at the end (KEEP_LOGS=1 keeps it and prints its path).
set -euo pipefail

cd "$(dirname "$0")/.."
# Every client of a benchmark is 127.0.0.1, so the server's caps per address (256
# connections, 64 live streams by default) would refuse the load itself: lift them for
# the servers started here, unless set already.
export DAMKA_MAX_CONNECTIONS_PER_ADDRESS=${DAMKA_MAX_CONNECTIONS_PER_ADDRESS:-20000}
export DAMKA_MAX_STREAMS_PER_ADDRESS=${DAMKA_MAX_STREAMS_PER_ADDRESS:-20000}
ROOT=$(pwd)
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-2s}
SQLITE_PORT=${SQLITE_PORT:-18431}
PG_PORT=${PG_PORT:-18432}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
CLIENT_THREADS=${CLIENT_THREADS:-1}
ONLY=${ONLY:-}
GAMES=${GAMES:-200}
SEED=${SEED:-1}
PROFILE=${PROFILE:-release}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$PROFILE" in
  release) build_flags=(--release) ;;
  debug) build_flags=() ;;
  quick-release) build_flags=(--profile quick-release) ;;
  *) echo "PROFILE must be release, quick-release or debug" >&2; exit 2 ;;
esac
case "$ONLY" in
  ""|pages|games) ;;
  *) echo "ONLY must be pages or games" >&2; exit 2 ;;
esac
DAMKA=$TARGET_DIR/$PROFILE/damka
LOAD=$TARGET_DIR/$PROFILE/damka-load
wants() { [[ -z $ONLY || $ONLY == "$1" ]]; }

case "$PG_URL" in
  postgres://*@127.0.0.1:*|postgres://*@localhost:*|postgres://*@127.0.0.1|postgres://*@localhost) ;;
  *) echo "PG_URL must point at a loopback PostgreSQL server" >&2; exit 2 ;;
esac

for tool in curl jq sqlite3; do
  command -v "$tool" >/dev/null || { echo "bench-http: needs $tool" >&2; exit 2; }
done
if [[ -z ${SKIP_PG:-} ]]; then
  command -v psql >/dev/null || { echo "bench-http: needs psql (or SKIP_PG=1)" >&2; exit 2; }
fi

if [[ -z ${NO_BUILD:-} ]]; then
  echo "== building $PROFILE binaries (damka, damka-load)"
  cargo build "${build_flags[@]}" --bin damka --bin damka-load
fi
for binary in "$DAMKA" "$LOAD"; do
  [[ -x $binary ]] || { echo "bench-http: $binary is missing (build it or drop NO_BUILD)" >&2; exit 2; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-bench.XXXXXX")
PG_DB=damka_bench_$$
PG_CREATED=
SERVER_PIDS=()
RESULTS=$WORK/results.jsonl
: >"$RESULTS"

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 "$PG_URL/postgres" "$@"; }

stop_server() {
  local pid=$1
  if kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

cleanup() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do stop_server "$pid"; done
  if [[ -n $PG_CREATED ]]; then
    psql_admin -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" || true
  fi
  if [[ -n ${KEEP_LOGS:-} ]]; then
    echo "bench-http: logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/"; }

wait_healthy() {
  local port=$1 pid=$2
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { echo "bench-http: the server on port $port exited" >&2; return 1; }
    curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" && return 0
    sleep 0.2
  done
  echo "bench-http: the server on port $port did not become healthy in 60 s" >&2
  return 1
}

server_args=()
[[ -n ${WORKERS:-} ]] && server_args+=(--workers "$WORKERS")
# shellcheck disable=SC2206 # word splitting of SERVER_ARGS is intended
[[ -n ${SERVER_ARGS:-} ]] && server_args+=($SERVER_ARGS)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

start_server() { # name port command...
  local name=$1 port=$2
  shift 2
  port_free "$port" || { echo "bench-http: port $port is in use" >&2; exit 1; }
  if [[ -n ${SERVER_RUST_LOG:-} ]]; then
    (cd "$WORK" && RUST_LOG=$SERVER_RUST_LOG exec "$@" "${server_args[@]}" >"$WORK/$name.log" 2>&1) &
  else
    (cd "$WORK" && exec "$@" "${server_args[@]}" >"$WORK/$name.log" 2>&1) &
  fi
  local pid=$!
  SERVER_PIDS+=("$pid")
  wait_healthy "$port" "$pid"
  LAST_PID=$pid
}

# import_standings_event PORT EMAIL PASSWORD: imports the 200-player Swiss, prints its id.
import_standings_event() {
  local port=$1 token
  token=$("$LOAD" --url "http://127.0.0.1:$port/" --login "$2:$3" --print-token)
  jq -Rs '{trf: .}' "$ROOT/tests/data/dutch/bench/standings_0200_r9.trf" >"$WORK/standings.json"
  curl -sf --max-time 60 -X POST -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' --data-binary "@$WORK/standings.json" \
    "http://127.0.0.1:$port/api/v1/events/import" | jq -r .id
}

run_load() { # backend label port path [damka-load args...]
  local backend=$1 label=$2 port=$3 path=$4
  shift 4
  echo "== $backend: $label (GET $path), $CONNECTIONS connections, $WARMUP warm-up + $DURATION"
  local out status=0
  out=$("$LOAD" --url "http://127.0.0.1:$port$path" --connections "$CONNECTIONS" \
    --duration "$DURATION" --warmup "$WARMUP" --threads "$CLIENT_THREADS" --json "$@") || status=$?
  if [[ -z $out ]]; then
    echo "bench-http: damka-load failed (exit $status)" >&2
    return 1
  fi
  echo "$out" | jq -c --arg b "$backend" --arg l "$label" '{backend: $b, label: $l} + .' | tee -a "$RESULTS"
}

run_games() { # backend port email password [rate]
  local backend=$1 port=$2 rate=${5:-} pacing=() label="games"
  if [[ -n $rate ]]; then
    pacing=(--rate "$rate")
    label="games, $rate moves/s offered"
  fi
  echo "== $backend: $GAMES $label (POST /api/v1/games/{id}/moves), $WARMUP warm-up + $DURATION"
  local out status=0
  out=$("$LOAD" --url "http://127.0.0.1:$port/" --login "$3:$4" --play-games "$GAMES" \
    --seed "$SEED" --duration "$DURATION" --warmup "$WARMUP" --threads "$CLIENT_THREADS" \
    "${pacing[@]}" --json) || status=$?
  if [[ -z $out ]]; then
    echo "bench-http: damka-load --play-games failed (exit $status)" >&2
    return 1
  fi
  echo "$out" | jq -c --arg b "$backend" --arg l "$label" '{backend: $b, label: $l} + .' | tee -a "$RESULTS"
}

run_all() { # backend port email password
  local backend=$1 port=$2 email=$3 password=$4 event
  if wants pages; then
    run_load "$backend" "home page" "$port" /
    run_load "$backend" "API /me" "$port" /api/v1/me --login "$email:$password"
    event=$(import_standings_event "$port" "$email" "$password")
    run_load "$backend" "standings 200x9" "$port" "/events/$event?tab=standings"
  fi
  if wants games; then
    run_games "$backend" "$port" "$email" "$password"
    if [[ -n ${GAMES_RATE:-} ]]; then
      run_games "$backend" "$port" "$email" "$password" "$GAMES_RATE"
    fi
  fi
}

# --- SQLite: the demo database (24 players, 3 clubs, 4 accounts) -------------------
echo "== SQLite: damka demo on 127.0.0.1:$SQLITE_PORT (in $WORK)"
start_server sqlite "$SQLITE_PORT" "$DAMKA" demo --bind "127.0.0.1:$SQLITE_PORT"
SQLITE_PID=$LAST_PID
# The demo prints "  administrator  admin@damka.demo  PASSWORD".
read -r _ ADMIN_EMAIL ADMIN_PASSWORD < <(grep -m1 -E '^\s+administrator\s' "$WORK/sqlite.log")
[[ -n ${ADMIN_PASSWORD:-} ]] || { echo "bench-http: no demo credentials in the log" >&2; exit 1; }
run_all sqlite "$SQLITE_PORT" "$ADMIN_EMAIL" "$ADMIN_PASSWORD"

# --- PostgreSQL: a fresh database with the same demo club --------------------------
if [[ -z ${SKIP_PG:-} ]]; then
  echo "== PostgreSQL: database $PG_DB"
  psql_admin -c "CREATE DATABASE $PG_DB"
  PG_CREATED=1
  PG_DB_URL=$PG_URL/$PG_DB
  PG_EMAIL=bench@damka.test
  PG_PASSWORD=$("$DAMKA" admin create --email "$PG_EMAIL" --database-url "$PG_DB_URL" | sed -n 's/^password: //p')
  [[ -n $PG_PASSWORD ]] || { echo "bench-http: damka admin create printed no password" >&2; exit 1; }
  # Same clubs, players and ratings as the SQLite demo, so both home pages render the same.
  {
    echo "BEGIN;"
    for table in clubs players player_ratings; do
      sqlite3 -cmd ".headers on" -cmd ".mode insert $table" "$WORK/damka-demo.db" "SELECT * FROM $table"
    done
    echo "SELECT setval(pg_get_serial_sequence('clubs', 'id'), (SELECT max(id) FROM clubs));"
    echo "SELECT setval(pg_get_serial_sequence('players', 'id'), (SELECT max(id) FROM players));"
    echo "COMMIT;"
  } | psql -X -q -v ON_ERROR_STOP=1 "$PG_DB_URL" >/dev/null
  stop_server "$SQLITE_PID"
  echo "== PostgreSQL: damka serve on 127.0.0.1:$PG_PORT"
  start_server postgres "$PG_PORT" "$DAMKA" serve --bind "127.0.0.1:$PG_PORT" --database-url "$PG_DB_URL"
  run_all postgres "$PG_PORT" "$PG_EMAIL" "$PG_PASSWORD"
fi

# --- Summary ---------------------------------------------------------------------------
echo
echo "damka HTTP benchmark: ${DURATION} measured after ${WARMUP} warm-up, loopback, $PROFILE build"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "damka $(git rev-parse --short HEAD 2>/dev/null || echo '?'); server workers: ${WORKERS:-one per core}; server options: ${SERVER_ARGS:-default}; client threads: $CLIENT_THREADS"
if wants pages; then
  echo
  echo "pages: $CONNECTIONS connections"
  {
    echo "backend|request|req/s|p50 ms|p90 ms|p99 ms|max ms|non-2xx/errors|target (>=5000 req/s, p99<20 ms)"
    jq -r 'select(.mode != "games")
           | [.backend, .label, .requests_per_s, .latency_ms.p50, .latency_ms.p90, .latency_ms.p99,
              .latency_ms.max, .non_2xx_or_failed,
              (if .requests_per_s >= 5000 and .latency_ms.p99 < 20 then "met" else "missed" end)]
           | join("|")' "$RESULTS"
  } | column -t -s '|'
fi
if wants games; then
  echo
  echo "games: $GAMES games at once, seed $SEED"
  {
    echo "backend|offered|moves/s|p50 ms|p90 ms|p99 ms|max ms|non-201/errors|games finished|target (>=2000 moves/s SQLite, >=4000 PostgreSQL, p99<25 ms)"
    jq -r 'select(.mode == "games")
           | [.backend, (.offered_moves_per_sec // "max"), .moves_per_sec, .latency_ms.p50,
              .latency_ms.p90, .latency_ms.p99,
              .latency_ms.max, .non_201_or_failed, .games_finished,
              (if .offered_moves_per_sec != null
               then (if .latency_ms.p99 < 25 then "p99 met" else "p99 missed" end)
               elif .moves_per_sec >= (if .backend == "sqlite" then 2000 else 4000 end)
                  and .latency_ms.p99 < 25 then "met" else "missed" end)]
           | join("|")' "$RESULTS"
  } | column -t -s '|'
fi
if jq -e 'select(.ok == false)' "$RESULTS" >/dev/null; then
  echo "bench-http: some runs failed (pages: more than 1% failed requests; games: a move not answered 201)" >&2
  exit 1
fi
