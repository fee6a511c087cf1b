#!/usr/bin/env bash
# API schema fuzzing: schemathesis (PyPI) generates requests for every operation of
# /api/v1/openapi.json, valid and invalid, with an administrator's API token, against damka
# on a fresh SQLite database (the demo club, so that ids in paths often exist), and fails on
# any 5xx (not_a_server_error) or any answer that breaks its own documented schema
# (response_schema_conformance).
#
#   scripts/schema-fuzz.sh                      # 25 examples per operation
#   MAX_EXAMPLES=100 scripts/schema-fuzz.sh     # longer
#
# Environment:
#   MAX_EXAMPLES=25      examples per operation and phase (schemathesis --max-examples)
#   MAX_TIME=            time budget in seconds for the whole schemathesis run (optional)
#   SEED=1               schemathesis --seed, so that a failure can be replayed
#   PORT=18441           loopback port of the server
#   PROFILE=debug|release  which build to run (default debug: CI has it built already)
#   NO_BUILD=1           use the binary already built
#   CARGO_TARGET_DIR     as for cargo (default: ./target)
#   KEEP_LOGS=1          keep the server log and schemathesis' report (path printed)
#
# The two /stream operations (Server-Sent Events) are left out: they answer with a stream
# that never ends, which schemathesis cannot read to its end; tests/integration/http_live.rs
# covers them.
#
# Needs curl and schemathesis (`pip install schemathesis`). Prints the number of cases run.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
MAX_EXAMPLES=${MAX_EXAMPLES:-25}
SEED=${SEED:-1}
PORT=${PORT:-18441}
PROFILE=${PROFILE:-debug}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$PROFILE" in
  release) build_flags=(--release) ;;
  debug) build_flags=() ;;
  *) echo "PROFILE must be debug or release" >&2; exit 2 ;;
esac
DAMKA=$TARGET_DIR/$PROFILE/damka

for tool in curl schemathesis; do
  command -v "$tool" >/dev/null || { echo "schema-fuzz: needs $tool" >&2; exit 2; }
done
if [[ -z ${NO_BUILD:-} ]]; then
  cargo build "${build_flags[@]}" --bin damka
fi
[[ -x $DAMKA ]] || { echo "schema-fuzz: $DAMKA is missing (build it or drop NO_BUILD)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/damka-schema-fuzz.XXXXXX")
SERVER_PID=
cleanup() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n ${KEEP_LOGS:-} ]]; then
    echo "schema-fuzz: logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BASE=http://127.0.0.1:$PORT
if curl -s -o /dev/null --max-time 1 "$BASE/"; then
  echo "schema-fuzz: port $PORT is in use" >&2
  exit 1
fi
# The demo's database is new at every start; its accounts' passwords are printed.
(cd "$WORK" && RUST_LOG=${SERVER_RUST_LOG:-warn} exec "$DAMKA" demo --bind "127.0.0.1:$PORT" >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
for attempt in $(seq 300); do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "schema-fuzz: the server exited" >&2; exit 1; }
  curl -sf -o /dev/null --max-time 1 "$BASE/healthz" && break
  [[ $attempt == 300 ]] && { echo "schema-fuzz: the server did not start in 60 s" >&2; exit 1; }
  sleep 0.2
done
# "  administrator  admin@damka.demo  PASSWORD"
read -r EMAIL PASSWORD < <(awk '/admin@damka.demo/ { for (i = 1; i <= NF; i++) if ($i ~ /@/) { print $i, $(i + 1); exit } }' "$WORK/server.log")
[[ -n ${PASSWORD:-} ]] || { cat "$WORK/server.log" >&2; echo "schema-fuzz: no demo administrator in the log" >&2; exit 1; }

# A token, made the way a person makes one: sign in, then the account page's form.
JAR=$WORK/cookies
csrf_of() { sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p' | head -n 1; }
csrf=$(curl -sf -c "$JAR" "$BASE/login" | csrf_of)
curl -sf -o /dev/null -b "$JAR" -c "$JAR" --data-urlencode "email=$EMAIL" \
  --data-urlencode "password=$PASSWORD" --data-urlencode "csrf_token=$csrf" "$BASE/login"
csrf=$(curl -sf -b "$JAR" -c "$JAR" "$BASE/account" | csrf_of)
curl -sf -o /dev/null -b "$JAR" -c "$JAR" --data-urlencode "name=schema-fuzz" \
  --data-urlencode "csrf_token=$csrf" "$BASE/account/tokens"
TOKEN=$(curl -sf -b "$JAR" -c "$JAR" "$BASE/account" | sed -n 's/.*id="new-token">\(dmk_[^<]*\)<.*/\1/p' | head -n 1)
[[ $TOKEN == dmk_* ]] || { echo "schema-fuzz: could not create an API token" >&2; exit 1; }
curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" "$BASE/api/v1/me"
# Path ids are drawn mostly from those the demo has (below), 1 to 8: DELETE /tokens/{id}
# must not find the run's own token among them, so spare tokens take the small ids and the
# run uses a later one.
for _ in $(seq 10); do
  TOKEN=$(curl -sf -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
    -d '{"name": "schema-fuzz"}' "$BASE/api/v1/tokens" | sed -n 's/.*"token":"\(dmk_[^"]*\)".*/\1/p')
  [[ $TOKEN == dmk_* ]] || { echo "schema-fuzz: could not create an API token" >&2; exit 1; }
done

# Most path parameters take values that exist in the demo (its clubs, players, events,
# rounds, boards and games), the rest are generated: random ids alone stop at 404.
cat >"$WORK/schemathesis.toml" <<'TOML'
[dictionaries]
ids = { values = [1, 2, 3, 4, 5, 6, 7, 8] }
rounds = { values = [1, 2, 3, 4] }
entries = { values = [1, 2, 3, 5, 8, 13, 21] }
pairings = { values = [1, 2, 3, 5, 8, 13, 21, 34] }
start_numbers = { values = [1, 2, 3, 5, 8, 12] }

[parameters]
id = { dictionary = "ids", probability = 0.8 }
round = { dictionary = "rounds", probability = 0.8 }
entry = { dictionary = "entries", probability = 0.8 }
first = { dictionary = "entries", probability = 0.8 }
second = { dictionary = "entries", probability = 0.8 }
pairing = { dictionary = "pairings", probability = 0.8 }
start_no = { dictionary = "start_numbers", probability = 0.8 }
request_id = { dictionary = "ids", probability = 0.8 }
TOML

time_budget=()
[[ -n ${MAX_TIME:-} ]] && time_budget=(--max-time "$MAX_TIME")
echo "== schemathesis: every operation of $BASE/api/v1/openapi.json, $MAX_EXAMPLES examples each"
status=0
# From the work directory, where schemathesis keeps its example database (.schemathesis/).
(cd "$WORK" && schemathesis --config-file "$WORK/schemathesis.toml" run "$BASE/api/v1/openapi.json" \
  --url "$BASE" \
  --header "Authorization: Bearer $TOKEN" \
  --checks not_a_server_error,response_schema_conformance \
  --exclude-path-regex '/stream$' \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --workers 1 \
  --request-timeout 30 \
  --suppress-health-check all \
  --report ndjson --report-dir "$WORK/report" \
  "${time_budget[@]}") 2>&1 | tee "$WORK/schemathesis.log" || status=$?

# schemathesis' summary: "Test cases:" and, on the next line, "N generated, ...".
cases=$(awk '/^ *Test cases:/ { getline; print $1 }' "$WORK/schemathesis.log" | tail -n 1)
echo "schema-fuzz: ${cases:-no} cases run; schemathesis exited with status $status"
if grep -qE 'Internal Server Error|panicked' "$WORK/server.log"; then
  echo "schema-fuzz: the server logged errors:" >&2
  grep -E 'Internal Server Error|panicked' "$WORK/server.log" | head -n 20 >&2
  status=1
fi
exit "$status"
