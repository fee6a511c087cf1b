#!/usr/bin/env bash
# Live-update benchmark of damka on loopback: two instances (A and B) on one PostgreSQL
# database; GAMES games played through A (`damka-load --play-games`, paced at RATE moves per
# second in all) while SUBSCRIBERS Server-Sent Events clients, spread evenly over the
# games, watch them on B (`--live`, `GET /api/v1/games/{id}/stream`). Reported: the time
# from each move's 201 on A to its `move` event at each subscriber on B (p50/p90/p99/max),
# and the events missed (every measured move must reach every subscriber of its game).
#
#   scripts/bench-live.sh                        # 200 games, 1000 subscribers, 100 moves/s
#   GAMES=200 SUBSCRIBERS=1000 RATE=400 scripts/bench-live.sh
#
# Environment:
#   GAMES=200 SUBSCRIBERS=1000 RATE=100 SEED=1   load shape (RATE: moves per second in all)
#   DURATION=20s WARMUP=3s                       measured time after the warm-up
#   PROFILE=release|quick-release|debug          which build to run (default release)
#   PORT_A=18441 PORT_B=18442                    loopback ports of the two instances
#   PG_URL=postgres://postgres@127.0.0.1:5432    PostgreSQL (trust auth); a database
#                                                damka_live_<pid> is created and dropped
#   WORKERS=N SERVER_ARGS=...                    damka serve options (both instances)
#   CLIENT_THREADS=1                             damka-load --threads
#   NO_BUILD=1 KEEP_LOGS=1 CARGO_TARGET_DIR      as in scripts/bench-http.sh
set -euo pipefail

cd "$(dirname "$0")/.."
# Every client of a benchmark is 127.0.0.1, so the server's caps per address (256
# connections, 64 live streams by default) would refuse the load itself: lift them for
# the servers started here, unless set already.
export DAMKA_MAX_CONNECTIONS_PER_ADDRESS=${DAMKA_MAX_CONNECTIONS_PER_ADDRESS:-20000}
export DAMKA_MAX_STREAMS_PER_ADDRESS=${DAMKA_MAX_STREAMS_PER_ADDRESS:-20000}
ROOT=$(pwd)
GAMES=${GAMES:-200}
SUBSCRIBERS=${SUBSCRIBERS:-1000}
RATE=${RATE:-100}
SEED=${SEED:-1}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-3s}
PORT_A=${PORT_A:-18441}
PORT_B=${PORT_B:-18442}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
CLIENT_THREADS=${CLIENT_THREADS:-1}
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
case "$PG_URL" in
  postgres://*@127.0.0.1:*|postgres://*@localhost:*|postgres://*@127.0.0.1|postgres://*@localhost) ;;
  *) echo "PG_URL must point at a loopback PostgreSQL server" >&2; exit 2 ;;
esac
for tool in curl jq psql; do
  command -v "$tool" >/dev/null || { echo "bench-live: needs $tool" >&2; exit 2; }
done

if [[ -z ${NO_BUILD:-} ]]; then
  echo "== building $PROFILE binaries (damka, damka-load)"
  cargo build "${build_flags[@]}" --bin damka --bin damka-load
fi
for binary in "$DAMKA" "$LOAD"; do
  [[ -x $binary ]] || { echo "bench-live: $binary is missing (build it or drop NO_BUILD)" >&2; exit 2; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-live.XXXXXX")
PG_DB=damka_live_$$
PG_CREATED=
SERVER_PIDS=()
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
    echo "bench-live: logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server_args=()
[[ -n ${WORKERS:-} ]] && server_args+=(--workers "$WORKERS")
# shellcheck disable=SC2206 # word splitting of SERVER_ARGS is intended
[[ -n ${SERVER_ARGS:-} ]] && server_args+=($SERVER_ARGS)

start_server() { # name port
  local name=$1 port=$2 pid
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
    echo "bench-live: port $port is in use" >&2
    exit 1
  fi
  (cd "$WORK" && exec "$DAMKA" serve --bind "127.0.0.1:$port" --database-url "$PG_URL/$PG_DB" \
    "${server_args[@]}" >"$WORK/$name.log" 2>&1) &
  pid=$!
  SERVER_PIDS+=("$pid")
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { echo "bench-live: instance $name exited" >&2; exit 1; }
    curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" && return 0
    sleep 0.2
  done
  echo "bench-live: instance $name did not become healthy in 60 s" >&2
  exit 1
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== PostgreSQL: database $PG_DB"
psql_admin -c "CREATE DATABASE $PG_DB"
PG_CREATED=1
EMAIL=bench@damka.test
PASSWORD=$("$DAMKA" admin create --email "$EMAIL" --database-url "$PG_URL/$PG_DB" | sed -n 's/^password: //p')
[[ -n $PASSWORD ]] || { echo "bench-live: damka admin create printed no password" >&2; exit 1; }
echo "== instances A (127.0.0.1:$PORT_A, moves) and B (127.0.0.1:$PORT_B, subscribers)"
start_server a "$PORT_A"
start_server b "$PORT_B"

echo "== $GAMES games at $RATE moves/s through A, $SUBSCRIBERS subscribers on B, $WARMUP warm-up + $DURATION"
status=0
out=$("$LOAD" --url "http://127.0.0.1:$PORT_A/" --login "$EMAIL:$PASSWORD" \
  --play-games "$GAMES" --seed "$SEED" --rate "$RATE" \
  --live "$SUBSCRIBERS" --watch-url "http://127.0.0.1:$PORT_B/" \
  --duration "$DURATION" --warmup "$WARMUP" --threads "$CLIENT_THREADS" --json) || status=$?
[[ -n $out ]] || { echo "bench-live: damka-load failed (exit $status)" >&2; exit 1; }
echo "$out" >"$WORK/result.json"

echo
echo "damka live benchmark: PostgreSQL, two instances, ${DURATION} measured after ${WARMUP} warm-up, loopback, $PROFILE build"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "damka $(git rev-parse --short HEAD 2>/dev/null || echo '?'); server workers: ${WORKERS:-one per core}; client threads: $CLIENT_THREADS"
{
  echo "games|subscribers|moves/s|move p99 ms|events|missed|event p50 ms|p90 ms|p99 ms|max ms|target (p99<200 ms, none missed)"
  jq -r '[.games, .live.subscribers, .moves_per_sec, .latency_ms.p99,
          .live.delivered_events, .live.missed_events,
          .live.move_to_event_latency_ms.p50, .live.move_to_event_latency_ms.p90,
          .live.move_to_event_latency_ms.p99, .live.move_to_event_latency_ms.max,
          (if .live.move_to_event_latency_ms.p99 < 200 and .live.missed_events == 0
           then "met" else "missed" end)] | join("|")' "$WORK/result.json"
} | column -t -s '|'
if [[ $(jq -r .ok "$WORK/result.json") != true ]]; then
  echo "bench-live: the run failed (a move not answered 201, or an event missed)" >&2
  jq -c '.first_errors' "$WORK/result.json" >&2
  exit 1
fi
