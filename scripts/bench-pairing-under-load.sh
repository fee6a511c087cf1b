#!/usr/bin/env bash
# Pairing a 1,800-player Swiss round while other users keep writing, on SQLite and on
# PostgreSQL: the writers' latency must not suffer (p99 under 100 ms, no 5xx), because the
# pairing is computed outside the write transaction and only stored under the lock.
#
#   scripts/bench-pairing-under-load.sh
#
# What it does, per backend, on a fresh database:
#   1. imports tests/data/dutch/bench/bench_1800.trf (1,800 players, 5 of 9 rounds played)
#      as an event over the API;
#   2. makes WRITER_EVENTS small Swiss events (other clubs' evenings: two players, round 1
#      published, one game each);
#   3. starts writers: for each of those games, `damka-load` with
#      WRITERS_PER_GAME connections that enter its result again and again, alternating
#      1-0 and 0-1 (every request is a real write with an audit entry);
#   4. while they run, pairs round 6 of the big event, then re-pairs it REPAIRS times
#      (each a full Dutch pairing of 1,800 players), timing every call;
#   5. prints the writers' latency and statuses and the pairing times, next to the same
#      writers measured alone for BASELINE_SECONDS before the pairing (the baseline).
#
# Environment:
#   WRITER_EVENTS=4 WRITERS_PER_GAME=2 REPAIRS=2 WARMUP=2s   load shape (the measured duration is set to
#                                           cover all pairings)
#   SQLITE_PORT=18441 PG_PORT=18442         loopback ports
#   PG_URL=postgres://postgres@127.0.0.1:5432   PostgreSQL server (trust auth); a fresh
#                                           database damka_pairload_<pid> is made and dropped
#   SKIP_PG=1 / SKIP_SQLITE=1               one backend only
#   NO_BUILD=1                              use the release binaries already built
#   CARGO_TARGET_DIR                        as for cargo (default: ./target)
#
# Everything runs on 127.0.0.1 and stops by itself (each load run is bounded by its
# duration, every curl by --max-time).
set -euo pipefail

cd "$(dirname "$0")/.."
# Every client of a benchmark is 127.0.0.1, so the server's caps per address (256
# connections, 64 live streams by default) would refuse the load itself: lift them for
# the servers started here, unless set already.
export DAMKA_MAX_CONNECTIONS_PER_ADDRESS=${DAMKA_MAX_CONNECTIONS_PER_ADDRESS:-20000}
export DAMKA_MAX_STREAMS_PER_ADDRESS=${DAMKA_MAX_STREAMS_PER_ADDRESS:-20000}
ROOT=$(pwd)
WRITERS_PER_GAME=${WRITERS_PER_GAME:-2}
WRITER_EVENTS=${WRITER_EVENTS:-4}
REPAIRS=${REPAIRS:-2}
WARMUP=${WARMUP:-2s}
SQLITE_PORT=${SQLITE_PORT:-18441}
PG_PORT=${PG_PORT:-18442}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
DAMKA=$TARGET_DIR/release/damka
LOAD=$TARGET_DIR/release/damka-load
TRF=$ROOT/tests/data/dutch/bench/bench_1800.trf
# Long enough for the first pairing and the re-pairings on a 2-core machine.
LOAD_SECONDS=${LOAD_SECONDS:-$(( 12 * (REPAIRS + 1) + 6 ))}
BASELINE_SECONDS=${BASELINE_SECONDS:-10}

case "$PG_URL" in
  postgres://*@127.0.0.1:*|postgres://*@localhost:*|postgres://*@127.0.0.1|postgres://*@localhost) ;;
  *) echo "PG_URL must point at a loopback PostgreSQL server" >&2; exit 2 ;;
esac
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "bench-pairing: needs $tool" >&2; exit 2; }
done
[[ -f $TRF ]] || { echo "bench-pairing: $TRF is missing" >&2; exit 2; }

if [[ -z ${NO_BUILD:-} ]]; then
  echo "== building release binaries (damka, damka-load)"
  cargo build --release --bin damka --bin damka-load
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-pairload.XXXXXX")
PG_DB=damka_pairload_$$
PG_CREATED=
SERVER_PID=
RESULTS=$WORK/results.jsonl
: >"$RESULTS"

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 "$PG_URL/postgres" "$@"; }

stop_server() {
  local pid=$1
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

cleanup() {
  stop_server "$SERVER_PID"
  jobs -p | xargs -r kill 2>/dev/null || true
  if [[ -n $PG_CREATED ]]; then
    psql_admin -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" || true
  fi
  if [[ -n ${KEEP_LOGS:-} ]]; then echo "bench-pairing: logs kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_healthy() {
  local port=$1 pid=$2
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || { echo "bench-pairing: the server on port $port exited" >&2; return 1; }
    curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" && return 0
    sleep 0.2
  done
  echo "bench-pairing: the server on port $port did not become healthy in 60 s" >&2
  return 1
}

# api METHOD PATH [JSON or @FILE]: prints the body; fails on a status other than 2xx.
api() {
  local method=$1 path=$2 body=${3:-}
  local args=(-sS --max-time 120 -X "$method" -H "Authorization: Bearer $TOKEN" -w '\n%{http_code}')
  [[ -n $body ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
  local out code
  out=$(curl "${args[@]}" "http://127.0.0.1:$PORT$path")
  code=${out##*$'\n'}
  out=${out%$'\n'*}
  if [[ $code != 2* ]]; then
    echo "bench-pairing: $method $path answered $code: $out" >&2
    return 1
  fi
  printf '%s' "$out"
}

# timed METHOD PATH: prints the wall-clock seconds of one API call.
timed() {
  local start end
  start=$(date +%s%N)
  api "$1" "$2" >/dev/null
  end=$(date +%s%N)
  awk -v ns=$(( end - start )) 'BEGIN { printf "%.2f", ns / 1e9 }'
}

WRITER_PIDS=()
start_writers() { # label seconds (uses $GAMES, $PORT, $TOKEN)
  local label=$1 seconds=$2 game
  WRITER_PIDS=()
  for game in $GAMES; do
    "$LOAD" --url "http://127.0.0.1:$PORT/api/v1/events/${game%:*}/pairings/${game#*:}/result" \
      --method PUT -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
      --body '{"result":"1-0"}' --body '{"result":"0-1"}' \
      --connections "$WRITERS_PER_GAME" --warmup "$WARMUP" --duration "${seconds}s" \
      --json >"$WORK/$label-writer-${game/:/-}.json" &
    WRITER_PIDS+=($!)
  done
}

wait_writers() {
  local pid
  for pid in "${WRITER_PIDS[@]}"; do wait "$pid" || true; done
}

summarise() { # backend phase pairing-times label
  jq -s --arg b "$1" --arg phase "$2" --arg t "$3" '{
      backend: $b,
      phase: $phase,
      pairing_s: $t,
      writes: (map(.requests) | add),
      writes_per_s: ((map(.requests_per_s) | add) | round),
      p50_ms: (map(.latency_ms.p50) | max),
      p99_ms: (map(.latency_ms.p99) | max),
      max_ms: (map(.latency_ms.max) | max),
      statuses: (map(.statuses | to_entries) | add | group_by(.key)
                 | map({(.[0].key): (map(.value) | add)}) | add),
      failed: (map(.non_2xx_or_failed) | add)
    }' "$WORK/$4"-writer-*.json | tee -a "$RESULTS"
}

run_backend() { # backend port database-url
  local backend=$1
  PORT=$2
  local url=$3
  echo "== $backend: fresh database, damka serve on 127.0.0.1:$PORT"
  local email=bench@damka.test password
  password=$("$DAMKA" admin create --email "$email" --database-url "$url" | sed -n 's/^password: //p')
  [[ -n $password ]] || { echo "bench-pairing: damka admin create printed no password" >&2; exit 1; }
  (cd "$WORK" && exec "$DAMKA" serve --bind "127.0.0.1:$PORT" --database-url "$url" >"$WORK/$backend.log" 2>&1) &
  SERVER_PID=$!
  wait_healthy "$PORT" "$SERVER_PID"
  TOKEN=$("$LOAD" --url "http://127.0.0.1:$PORT/" --login "$email:$password" --print-token)

  echo "== $backend: importing the 1,800-player event"
  local big
  jq -Rs '{trf: .}' "$TRF" >"$WORK/import.json"
  big=$(api POST /api/v1/events/import "@$WORK/import.json" | jq -r .id)

  echo "== $backend: $WRITER_EVENTS writers' events (two players each, round 1 published)"
  local small player game
  GAMES=
  for e in $(seq "$WRITER_EVENTS"); do
    small=$(api POST /api/v1/events "{\"name\":\"Club evening $e\",\"system\":\"swiss\",\"rounds\":3}" | jq -r .id)
    for side in 1 2; do
      player=$(api POST /api/v1/players "{\"name\":\"Writer $e.$side\"}" | jq -r .id)
      api POST "/api/v1/events/$small/entries" "{\"player_id\":$player}" >/dev/null
    done
    game=$(api POST "/api/v1/events/$small/rounds" | jq -r '.boards[] | select(.black_entry_id != null) | .pairing_id')
    api POST "/api/v1/events/$small/rounds/publish" >/dev/null
    GAMES="$GAMES $small:$game"
  done

  echo "== $backend: writers alone for ${BASELINE_SECONDS} s after $WARMUP warm-up (baseline)"
  start_writers "$backend-alone" "$BASELINE_SECONDS"
  wait_writers
  summarise "$backend" "writers alone" "-" "$backend-alone"

  echo "== $backend: writers for ${LOAD_SECONDS} s after $WARMUP warm-up; pairing meanwhile"
  start_writers "$backend-pairing" "$LOAD_SECONDS"
  sleep "${WARMUP%s}"
  sleep 1
  local times=()
  times+=("$(timed POST "/api/v1/events/$big/rounds")")
  for _ in $(seq "$REPAIRS"); do
    times+=("$(timed POST "/api/v1/events/$big/rounds/repair")")
  done
  wait_writers
  local boards
  boards=$(api GET "/api/v1/events/$big/rounds" | jq '.[5].boards | length')
  echo "== $backend: round 6 has $boards boards; pairing calls took ${times[*]} s"
  summarise "$backend" "while pairing 1,800" "${times[*]}" "$backend-pairing"
  stop_server "$SERVER_PID"
  SERVER_PID=
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
if [[ -z ${SKIP_SQLITE:-} ]]; then
  run_backend sqlite "$SQLITE_PORT" "sqlite://$WORK/pairload.db"
fi
if [[ -z ${SKIP_PG:-} ]]; then
  command -v psql >/dev/null || { echo "bench-pairing: needs psql (or SKIP_PG=1)" >&2; exit 2; }
  psql_admin -c "CREATE DATABASE $PG_DB"
  PG_CREATED=1
  run_backend postgres "$PG_PORT" "$PG_URL/$PG_DB"
fi

echo
echo "Pairing 1,800 players while $(( WRITER_EVENTS * WRITERS_PER_GAME )) connections keep entering results in $WRITER_EVENTS other events (loopback)"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "damka $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
{
  echo "backend|writers|pairing calls (s)|writes|writes/s|p50 ms|p99 ms|max ms|statuses|target (p99<100 ms, no 5xx)"
  jq -r '[.backend, .phase, .pairing_s, .writes, .writes_per_s, .p50_ms, .p99_ms, .max_ms,
          (.statuses | to_entries | map("\(.key): \(.value)") | join(" ")),
          (if .p99_ms < 100 and ([.statuses | keys[] | select(startswith("5"))] | length) == 0
           then "met" else "missed" end)] | join("|")' "$RESULTS"
} | column -t -s '|'
if jq -e 'select(.p99_ms >= 100 or ([.statuses | keys[] | select(startswith("5"))] | length) > 0)' "$RESULTS" >/dev/null; then
  echo "bench-pairing: target missed" >&2
  exit 1
fi
