#!/usr/bin/env bash
# `npm test [-- files or folders]`: set-up (scripts/ensure.sh), a fresh Temporal dev
# server for the tests on 127.0.0.1:7244 (unless TEMPORAL_ADDRESS is set), migrations
# on the test database, then jest (jest.config.js: one project per folder under test/).
# Arguments go to jest: `npm test -- test/api/tickets-list.test.ts` runs one file.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

# ENSURE_CHROMIUM=1: the browser tests (test/browser) need Debian's chromium
ENSURE_CHROMIUM=1 bash scripts/ensure.sh
# shellcheck disable=SC1091
. .data/env
export DATABASE_URL="${TEST_DATABASE_URL:-$DATABASE_URL}"
export REDIS_URL="${TEST_REDIS_URL:-$REDIS_URL}"
export NODE_ENV=test
# the end-to-end tests' webhook receivers listen on 127.0.0.1 (never set this in production)
export WEBHOOK_ALLOW_LOOPBACK=1
# every test connects from 127.0.0.1: the failed-auth throttle per IP (10 a minute by
# default) would let one test's wrong keys starve another's; its own test sets a small one
export RATE_LIMITS="${RATE_LIMITS:-auth-failures=100000}"
export TEMPORAL_NAMESPACE="${TEMPORAL_NAMESPACE:-default}"

TEMPORAL_PID=""
WATCHDOG_PID=""
TEMPORAL_DB=""

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

stop_temporal() {
  [ -n "$WATCHDOG_PID" ] && kill "$WATCHDOG_PID" 2>/dev/null
  WATCHDOG_PID=""
  [ -n "$TEMPORAL_PID" ] || return 0
  kill -TERM "$TEMPORAL_PID" 2>/dev/null || true
  local i
  for i in $(seq 1 50); do kill -0 "$TEMPORAL_PID" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$TEMPORAL_PID" 2>/dev/null || true
  wait "$TEMPORAL_PID" 2>/dev/null || true
  TEMPORAL_PID=""
  [ -n "${TEMPORAL_DB:-}" ] && rm -f "$TEMPORAL_DB" "$TEMPORAL_DB"-*
}
trap stop_temporal EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The one list of our search attributes (lib/temporal/search-attributes.ts), as flags.
read -r -a _search_attributes <<<"$(node_modules/.bin/tsx -e "process.stdout.write(require('./lib/temporal/search-attributes').SEARCH_ATTRIBUTES.join(' '))")"
SEARCH_ATTRIBUTE_FLAGS=(); SEARCH_ATTRIBUTE_NAMES=()
for a in "${_search_attributes[@]}"; do
  SEARCH_ATTRIBUTE_FLAGS+=(--search-attribute "$a=Keyword"); SEARCH_ATTRIBUTE_NAMES+=(--name "$a")
done
[ "${#_search_attributes[@]}" -gt 0 ] || { echo "[test] could not read lib/temporal/search-attributes.ts" >&2; exit 1; }

# Starts the test Temporal server on $1 in the background; 0 once it answers, 1 when it
# died or never answered (its log then says why), 2 when it lost the port to another process.
start_test_temporal() {
  local port="$1" suffix=""
  [ "$port" = 7244 ] || suffix="-$port"
  # the SQLite file is this run's own (two runs may try one port at once: the loser must
  # not delete the winner's file); stop_temporal deletes it
  TEMPORAL_DB="$ROOT/.data/temporal-test-$$.sqlite"
  TEMPORAL_LOG="$ROOT/.data/logs/temporal-test$suffix.log"
  rm -f "$TEMPORAL_DB" "$TEMPORAL_DB"-*
  mkdir -p "$(dirname "$TEMPORAL_LOG")"
  # Search attributes are registered at start-up so they are usable at once.
  "$TEMPORAL_CLI_PATH" server start-dev \
    --db-filename "$TEMPORAL_DB" --port "$port" --ip 127.0.0.1 --headless \
    --namespace "$TEMPORAL_NAMESPACE" --log-level warn \
    --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal \
    "${SEARCH_ATTRIBUTE_FLAGS[@]}" \
    >"$TEMPORAL_LOG" 2>&1 </dev/null &
  TEMPORAL_PID=$!
  # If this script is killed outright (no trap runs), the server still goes away.
  (
    trap '' INT TERM HUP
    while kill -0 $$ 2>/dev/null; do sleep 1; done
    kill -TERM "$TEMPORAL_PID" 2>/dev/null
  ) </dev/null >/dev/null 2>&1 &
  WATCHDOG_PID=$!
  export TEMPORAL_ADDRESS="127.0.0.1:$port"
  for _ in $(seq 1 240); do
    if ! kill -0 "$TEMPORAL_PID" 2>/dev/null; then break; fi
    if "$TEMPORAL_CLI_PATH" operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  stop_temporal
  grep -qi 'address already in use' "$TEMPORAL_LOG" 2>/dev/null && return 2
  return 1
}

if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  # 7244 unless taken (another npm test in this or another checkout): then the next free
  # port, with its own SQLite file. Two runs may find the same port free at once: the one
  # that loses it to the other moves on to the next. An explicit TEST_TEMPORAL_PORT must be free.
  if [ -n "${TEST_TEMPORAL_PORT:-}" ]; then
    port="$TEST_TEMPORAL_PORT"
    port_open "$port" && { echo "[test] 127.0.0.1:$port (TEST_TEMPORAL_PORT) is in use" >&2; exit 1; }
    last_port="$port"
  else
    port=7244; last_port=7299
  fi
  while :; do
    while port_open "$port"; do
      port=$((port + 1))
      [ "$port" -le "$last_port" ] || { echo "[test] no free port in 7244-$last_port for the test Temporal server" >&2; exit 1; }
    done
    rc=0; start_test_temporal "$port" || rc=$?
    [ "$rc" -eq 0 ] && break
    if [ "$rc" -eq 2 ] && [ "$port" -lt "$last_port" ]; then
      echo "[test] 127.0.0.1:$port was taken as the test Temporal server started: trying the next port" >&2
      port=$((port + 1)); continue
    fi
    echo "[test] the test Temporal server did not come up; last lines of $TEMPORAL_LOG:" >&2
    tail -n 30 "$TEMPORAL_LOG" >&2 || true
    exit 1
  done
else
  # An external server: make sure it knows our search attributes (idempotent).
  out="$("$TEMPORAL_CLI_PATH" operator search-attribute create \
    "${SEARCH_ATTRIBUTE_NAMES[@]}" --type Keyword \
    --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" 2>&1)" \
    || grep -qi 'already exists' <<<"$out" \
    || { echo "[test] registering search attributes on $TEMPORAL_ADDRESS failed: $out" >&2; exit 1; }
fi

node_modules/.bin/tsx db/migrate.ts

trap 'stop_test_services; stop_temporal' EXIT
# shellcheck source=scripts/test-services.sh
. scripts/test-services.sh

set +e
# The import rules (docs/architecture.md) with the whole suite; a run of chosen files skips them.
deps_rc=0
if [ "$#" -eq 0 ]; then
  npm run -s lint:deps
  deps_rc=$?
fi
node_modules/.bin/jest "$@"
rc=$?
set -e
[ "$rc" -ne 0 ] || rc="$deps_rc"
exit "$rc"
