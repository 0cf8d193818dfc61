# Sourced by scripts/test.sh once Temporal and the test database are ready: starts what
# the end-to-end tests talk to beside the suite, the way `npm start` runs it: a real
# SMTP server on loopback (scripts/mail-sink.ts), the FCM + APNs push sink
# (scripts/push-sink.ts) and one worker per task queue, all stopped again when the
# test run exits.
TEST_SERVICE_PIDS=()

stop_test_services() {
  local pid
  for pid in "${TEST_SERVICE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${TEST_SERVICE_PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  TEST_SERVICE_PIDS=()
}

# Starts a stand-in in the background (its output in $ROOT/.data/logs/<log>.log) and waits
# until it prints where it listens: the first capture of the sed pattern `$3` in its log,
# left in $ANNOUNCED. Exits the run with the log when it dies or never says.
ANNOUNCED=""
start_announced() {
  local what="$1" log="$ROOT/.data/logs/$2.log" pattern="$3"
  shift 3
  "$@" >"$log" 2>&1 </dev/null &
  TEST_SERVICE_PIDS+=($!)
  ANNOUNCED=""
  for _ in $(seq 1 120); do
    ANNOUNCED="$(sed -n "s/$pattern/\1/p" "$log" 2>/dev/null)"
    [ -n "$ANNOUNCED" ] && return 0
    kill -0 "${TEST_SERVICE_PIDS[-1]}" 2>/dev/null || break
    sleep 0.25
  done
  echo "[test] $what did not start:" >&2
  cat "$log" >&2 || true
  exit 1
}

export MAIL_SINK_DIR="$ROOT/.data/test-mail"
rm -rf "$MAIL_SINK_DIR" && mkdir -p "$MAIL_SINK_DIR"
# port 0 unless MAIL_SINK_PORT says otherwise: parallel runs never collide
MAIL_SINK_PORT="${MAIL_SINK_PORT:-0}" start_announced "the SMTP sink" smtp-sink '^smtp sink on 127\.0\.0\.1:\([0-9]*\).*' \
  node_modules/.bin/tsx scripts/mail-sink.ts
export SMTP_URL="smtp://127.0.0.1:$ANNOUNCED"

# The push sink: FCM HTTP v1 + APNs (h2c) on a free port; tests and the push worker
# reach it through FCM_ENDPOINT / APNS_ENDPOINT and read .data/test-push/{fcm,apns}.jsonl.
# It trusts the demo credentials and every key the tests upload (it reads DATABASE_URL,
# the test database, migrated above: scripts/push-sink/db-trust.ts).
export PUSH_SINK_DIR="$ROOT/.data/test-push"
rm -rf "$PUSH_SINK_DIR" && mkdir -p "$PUSH_SINK_DIR"
PUSH_SINK_PORT="${PUSH_SINK_PORT:-0}" start_announced "the push sink" push-sink '^push sink on \(http:\/\/[0-9.:]*\).*' \
  node_modules/.bin/tsx scripts/push-sink.ts
export FCM_ENDPOINT="$ANNOUNCED" APNS_ENDPOINT="$ANNOUNCED"

# The transactional email provider the onboarding worker tries before SMTP: a fake of
# Postmark's API (test/support/fake-postmark-main.ts) that refuses `+provider-down`
# recipients (503) and writes what it accepts to .data/test-postmark/.
export POSTMARK_SINK_DIR="$ROOT/.data/test-postmark" POSTMARK_SERVER_TOKEN="test-postmark-token"
rm -rf "$POSTMARK_SINK_DIR" && mkdir -p "$POSTMARK_SINK_DIR"
start_announced "the fake email provider" fake-postmark '^fake postmark on \(http:\/\/[0-9.:]*\).*' \
  node_modules/.bin/tsx test/support/fake-postmark-main.ts
export POSTMARK_API_URL="$ANNOUNCED"

# the queue names, from the worker registry (workers/registry.ts) itself
queues="$(node_modules/.bin/tsx workers/list-queues.ts)" || { echo "[test] workers/list-queues.ts failed" >&2; exit 1; }
[ -n "$queues" ] || { echo "[test] the worker registry lists no queue" >&2; exit 1; }
for queue in $queues; do
  log="$ROOT/.data/logs/worker-$queue-test.log"
  LOG_LEVEL=info node_modules/.bin/tsx workers/main.ts "$queue" >"$log" 2>&1 </dev/null &
  TEST_SERVICE_PIDS+=($!)
  ready=0
  for _ in $(seq 1 240); do
    grep -q 'worker started' "$log" 2>/dev/null && { ready=1; break; }
    kill -0 "${TEST_SERVICE_PIDS[-1]}" 2>/dev/null || break
    sleep 0.25
  done
  if [ "$ready" -ne 1 ]; then
    echo "[test] the $queue worker did not start; last lines of $log:" >&2
    tail -n 30 "$log" >&2 || true
    exit 1
  fi
done
