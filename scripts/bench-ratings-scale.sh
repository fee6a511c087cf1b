#!/usr/bin/env bash
# Ratings at federation scale (issue 31): what a result write costs with 10,000, 100,000
# and 1,000,000 rated games stored, on SQLite and PostgreSQL.
#
# For each database and size: `damka-archive` builds the archive through the service's own
# code (profiles, one TRF import per round-robin of 20, each dated on its days over ten
# years, the from-scratch recompute), a release server starts on it, and then, through the
# HTTP API, one after another:
#
#   results    30 results entered on a new rated round-robin of 12 archive players
#              (5 rounds of 6 boards): median and p99 of the writes
#   correction a result of an event about five years back turned round: the write's time,
#              then how long until the API no longer says the ratings are being updated,
#              with the p99 of 30 other results written meanwhile (another event)
#
#   scripts/bench-ratings-scale.sh
#   SIZES="10000 100000" DATABASES=sqlite scripts/bench-ratings-scale.sh
#
# Environment:
#   SIZES="10000 100000 1000000"  DATABASES="sqlite postgres"  PORT=18481
#   PROFILE=release|quick-release|debug  PG_URL=postgres://postgres@127.0.0.1:5432
#   NO_BUILD=1 KEEP=1 (keep the work directory and databases)  CARGO_TARGET_DIR
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
SIZES=${SIZES:-10000 100000 1000000}
DATABASES=${DATABASES:-sqlite postgres}
PORT=${PORT:-18481}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
PROFILE=${PROFILE:-release}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$PROFILE" in
  release) build_flags=(--release) ;;
  debug) build_flags=() ;;
  quick-release) build_flags=(--profile quick-release) ;;
  *) echo "PROFILE must be release, quick-release or debug" >&2; exit 2 ;;
esac
BIN=$TARGET_DIR/$PROFILE
for tool in curl jq psql python3; do
  command -v "$tool" >/dev/null || { echo "bench-ratings-scale: needs $tool" >&2; exit 2; }
done
if [[ -z ${NO_BUILD:-} ]]; then
  echo "== building $PROFILE binaries (damka, damka-load, damka-archive)"
  cargo build "${build_flags[@]}" --bin damka --bin damka-load --bin damka-archive
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-ratings-scale.XXXXXX")
SERVER_PID=
PG_DATABASES=()
cleanup() {
  [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  if [[ -z ${KEEP:-} ]]; then
    for db in "${PG_DATABASES[@]}"; do
      psql -X -q "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
    done
    rm -rf "$WORK"
  else
    echo "kept $WORK ${PG_DATABASES[*]}"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

URL=http://127.0.0.1:$PORT
TOKEN=

wait_healthy() {
  for _ in $(seq 600); do
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server exited" >&2; return 1; }
    curl -sf -o /dev/null --max-time 1 "$URL/healthz" && return 0
    sleep 0.2
  done
  echo "the server did not become healthy in 120 s" >&2
  return 1
}

api() { # METHOD PATH [JSON]: the body on stdout
  curl -sf --max-time 120 -X "$1" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${3:+--data "$3"} "$URL$2"
}

timed() { # METHOD PATH JSON: the write's milliseconds on stdout; fails on an error status
  local out
  out=$(curl -s -o /dev/null --max-time 120 -w '%{http_code} %{time_total}' -X "$1" \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data "$3" "$URL$2")
  [[ ${out%% *} == 2* ]] || { echo "$1 $2: HTTP ${out%% *}" >&2; return 1; }
  python3 -c "print(round(${out#* } * 1000, 1))"
}

stats() { # file of milliseconds: "median M / p99 P ms (n N)"
  python3 - "$1" <<'PY'
import sys
v = sorted(float(x) for x in open(sys.argv[1]) if x.strip())
p99 = v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]
mid = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
print(f"median {mid:.1f} / p99 {p99:.1f} ms (n {len(v)})")
PY
}

new_event() { # NAME PLAYER_IDS...: a rated round-robin of these archive players; its id
  local name=$1 id
  shift
  id=$(api POST /api/v1/events "{\"name\":\"$name\",\"system\":\"round_robin\",\"rated\":true}" | jq -r .id)
  for player in "$@"; do
    api POST "/api/v1/events/$id/entries" "{\"player_id\":$player}" >/dev/null
  done
  echo "$id"
}

play_results() { # EVENT ROUNDS OUT: pairs and publishes ROUNDS rounds, times each result
  local event=$1 rounds=$2 out=$3 round boards pid i=0
  local results=("1-0" "1/2-1/2" "0-1")
  for round in $(seq "$rounds"); do
    boards=$(api POST "/api/v1/events/$event/rounds" | jq -r '.boards[] | select(.black_entry_id != null) | .pairing_id')
    api POST "/api/v1/events/$event/rounds/publish" >/dev/null
    for pid in $boards; do
      timed PUT "/api/v1/events/$event/pairings/$pid/result" "{\"result\":\"${results[i % 3]}\"}" >>"$out"
      i=$((i + 1))
    done
  done
}

updating() { api GET "/api/v1/ratings?variant=russian&limit=1" | jq -r '.updating_since // empty'; }

measure() { # DB SIZE URL
  local db=$1 size=$2 url=$3 info started built
  echo "== $db, $size rated games"
  started=$(date +%s.%N)
  info=$("$BIN/damka-archive" --database-url "$url" --games "$size" 2>"$WORK/archive-$db-$size.log")
  built=$(python3 -c "print(round($(date +%s.%N) - $started))")
  echo "   archive built in ${built} s ($(tail -n 1 "$WORK/archive-$db-$size.log"))"
  (cd "$WORK" && exec "$BIN/damka" serve --bind "127.0.0.1:$PORT" --database-url "$url" \
    >"$WORK/server-$db-$size.log" 2>&1) &
  SERVER_PID=$!
  wait_healthy
  TOKEN=$("$BIN/damka-load" --url "$URL/" --login "$(jq -r .email <<<"$info"):$(jq -r .password <<<"$info")" --print-token)
  mapfile -t players < <(jq -r '.player_ids[]' <<<"$info")
  local event other
  event=$(new_event "Results bench" "${players[@]:0:12}")
  : >"$WORK/results.ms"
  play_results "$event" 5 "$WORK/results.ms"
  echo "   30 results:           $(stats "$WORK/results.ms")"

  local old pairing turned write_ms t0 current other_pid
  old=$(jq -r .old_event_id <<<"$info")
  pairing=$(jq -r .old_pairing_id <<<"$info")
  api POST "/api/v1/events/$old/reopen" >/dev/null 2>&1 || true
  turned=$(api GET "/api/v1/events/$old/rounds" | jq -r --argjson p "$pairing" \
    '[.[].boards[] | select(.pairing_id == $p)][0].result | if . == "1-0" then "0-1" else "1-0" end')
  other=$(new_event "Other writers" "${players[@]:0:12}")
  t0=$(date +%s.%N)
  write_ms=$(timed PUT "/api/v1/events/$old/pairings/$pairing/result" "{\"result\":\"$turned\"}")
  : >"$WORK/others.ms"
  play_results "$other" 5 "$WORK/others.ms" &
  other_pid=$!
  while [[ -n $(updating) ]]; do
    sleep 0.2
    if python3 -c "import sys; sys.exit(0 if $(date +%s.%N) - $t0 > 900 else 1)"; then
      echo "   the catch-up did not end in 900 s" >&2
      break
    fi
  done
  current=$(python3 -c "print(round($(date +%s.%N) - $t0, 1))")
  wait "$other_pid"
  echo "   correction 5 years back: the write ${write_ms} ms; ratings current after ${current} s"
  echo "   other writers meanwhile: $(stats "$WORK/others.ms")"
  kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  "$BIN/damka" ratings recompute --check --database-url "$url" >"$WORK/check.out" 2>&1 \
    || { echo "   the stored ratings differ from a recompute:" >&2; head "$WORK/check.out" >&2; exit 1; }
  echo "   damka ratings recompute --check: the stored ratings are exactly a recompute"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
for db in $DATABASES; do
  for size in $SIZES; do
    case "$db" in
      sqlite) measure sqlite "$size" "sqlite://$WORK/ratings-$size.db" ;;
      postgres)
        name="damka_bench_ratings_$size"
        psql -X -q "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $name WITH (FORCE)"
        psql -X -q "$PG_URL/postgres" -c "CREATE DATABASE $name"
        PG_DATABASES+=("$name")
        measure postgres "$size" "$PG_URL/$name"
        ;;
      *) echo "DATABASES: sqlite or postgres, not $db" >&2; exit 2 ;;
    esac
  done
done
