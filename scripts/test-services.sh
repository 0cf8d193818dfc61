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

export MAIL_SINK_DIR="$ROOT/.data/test-mail"
rm -rf "$MAIL_SINK_DIR" && mkdir -p "$MAIL_SINK_DIR"
sink_log="$ROOT/.data/logs/smtp-sink.log"
# port 0 unless MAIL_SINK_PORT says otherwise: parallel runs never collide
MAIL_SINK_PORT="${MAIL_SINK_PORT:-0}" node_modules/.bin/tsx scripts/mail-sink.ts >"$sink_log" 2>&1 </dev/null &
TEST_SERVICE_PIDS+=($!)
sink_port=""
for _ in $(seq 1 120); do
  sink_port="$(sed -n 's/^smtp sink on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$sink_log" 2>/dev/null)"
  [ -n "$sink_port" ] && break
  kill -0 "${TEST_SERVICE_PIDS[-1]}" 2>/dev/null || break
  sleep 0.25
done
if [ -z "$sink_port" ]; then
  echo "[test] the SMTP sink did not start:" >&2
  cat "$sink_log" >&2 || true
  exit 1
fi
export SMTP_URL="smtp://127.0.0.1:$sink_port"

# The push sink: FCM HTTP v1 + APNs (h2c) on a free port; tests and the push worker
# reach it through FCM_ENDPOINT / APNS_ENDPOINT and read .data/test-push/{fcm,apns}.jsonl.
# It trusts the demo credentials and every key the tests upload (it reads DATABASE_URL,
# the test database, migrated above: scripts/push-sink/db-trust.ts).
export PUSH_SINK_DIR="$ROOT/.data/test-push"
rm -rf "$PUSH_SINK_DIR" && mkdir -p "$PUSH_SINK_DIR"
push_log="$ROOT/.data/logs/push-sink.log"
PUSH_SINK_PORT="${PUSH_SINK_PORT:-0}" node_modules/.bin/tsx scripts/push-sink.ts >"$push_log" 2>&1 </dev/null &
TEST_SERVICE_PIDS+=($!)
push_url=""
for _ in $(seq 1 120); do
  push_url="$(sed -n 's/^push sink on \(http:\/\/[0-9.:]*\).*/\1/p' "$push_log" 2>/dev/null)"
  [ -n "$push_url" ] && break
  kill -0 "${TEST_SERVICE_PIDS[-1]}" 2>/dev/null || break
  sleep 0.25
done
if [ -z "$push_url" ]; then
  echo "[test] the push sink did not start:" >&2
  cat "$push_log" >&2 || true
  exit 1
fi
export FCM_ENDPOINT="$push_url" APNS_ENDPOINT="$push_url"

# The transactional email provider the onboarding worker tries before SMTP: a fake of
# Postmark's API (test/support/fake-postmark-main.ts) that refuses `+provider-down`
# recipients (503) and writes what it accepts to .data/test-postmark/.
export POSTMARK_SINK_DIR="$ROOT/.data/test-postmark" POSTMARK_SERVER_TOKEN="test-postmark-token"
rm -rf "$POSTMARK_SINK_DIR" && mkdir -p "$POSTMARK_SINK_DIR"
postmark_log="$ROOT/.data/logs/fake-postmark.log"
node_modules/.bin/tsx test/support/fake-postmark-main.ts >"$postmark_log" 2>&1 </dev/null &
TEST_SERVICE_PIDS+=($!)
postmark_url=""
for _ in $(seq 1 120); do
  postmark_url="$(sed -n 's/^fake postmark on \(http:\/\/[0-9.:]*\).*/\1/p' "$postmark_log" 2>/dev/null)"
  [ -n "$postmark_url" ] && break
  kill -0 "${TEST_SERVICE_PIDS[-1]}" 2>/dev/null || break
  sleep 0.25
done
if [ -z "$postmark_url" ]; then
  echo "[test] the fake email provider did not start:" >&2
  cat "$postmark_log" >&2 || true
  exit 1
fi
export POSTMARK_API_URL="$postmark_url"

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
