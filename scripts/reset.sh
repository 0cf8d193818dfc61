#!/usr/bin/env bash
# `npm run reset`: stops and removes everything the local stack of this checkout made, so
# the next `npm start` or `npm test` starts from scratch (docs/setup.md, "Resetting"):
#
#   1. its processes: a running `npm start` (its supervisor first, which stops its children
#      in order), extra `npm run worker` processes, the API, the stand-ins, the Temporal dev
#      servers of npm start and npm test: any process whose working directory is this
#      checkout and that runs one of its scripts, or that names a file under .data;
#   2. Redis (the daemon of .data/redis.pid);
#   3. the PostgreSQL cluster, wherever scripts/ensure.sh put it: .data/postgres, or the
#      folder named in .data/postgres-datadir (/var/lib/postgresql/project-<hash> when the
#      postgres user cannot enter the checkout); stopped, then deleted with its databases
#      (support and support_test);
#   4. .data itself: env, logs, Temporal's SQLite files, the mail and push sinks' files.
#
# The master key (.data/webhook-secret-key, WEBHOOK_SECRET_KEY in .data/env) seals every
# secret stored in the database. It goes only together with the database: when the data
# lives elsewhere (DATABASE_URL names another server, or another checkout's cluster answered
# on our port), that database is not touched and the key is kept in .data, or it would be
# left sealed with a key nobody has. node_modules and .tools (installed tools, not state)
# stay.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
DATA="$ROOT/.data"
PGBIN_GLOB="/usr/lib/postgresql/*/bin"

say() { printf '[reset] %s\n' "$*"; }
warn() { printf '[reset] WARNING: %s\n' "$*" >&2; }

if [ ! -d "$DATA" ]; then
  say "nothing to reset: $DATA does not exist"
  exit 0
fi

# No ensure.sh (npm start, npm test) may set things up again while we take them down.
exec 9>"$DATA/.ensure.lock"
if command -v flock >/dev/null 2>&1; then flock -w 60 9 || warn "another scripts/ensure.sh holds $DATA/.ensure.lock; going on"; fi

alive() { kill -0 "$1" 2>/dev/null; }
wait_gone() { # pid seconds
  local i
  for i in $(seq 1 $(($2 * 5))); do alive "$1" || return 0; sleep 0.2; done
  ! alive "$1"
}

# ---------------------------------------------------------------------------------
# 1. the stack's processes
# ---------------------------------------------------------------------------------
# ourselves and our ancestors (npm, the shell that ran us) are never the stack's
ANCESTORS=" "
p=$$
while [ -n "$p" ] && [ "$p" -gt 1 ] 2>/dev/null; do
  ANCESTORS+="$p "
  p="$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null || true)"
done

# Pids of this checkout's stack; the supervisors (scripts/start.ts) first.
stack_pids() {
  local dir pid cwd args first=() rest=()
  for dir in /proc/[0-9]*; do
    pid="${dir#/proc/}"
    case "$ANCESTORS" in *" $pid "*) continue ;; esac
    args="$(tr '\0' ' ' <"$dir/cmdline" 2>/dev/null || true)"
    [ -n "$args" ] || continue
    case "$args" in */bin/postgres\ *) continue ;; esac # the cluster: pg_ctl stops it below
    cwd="$(readlink "$dir/cwd" 2>/dev/null || true)"
    case "$args" in
      *"$DATA/"*) ;; # a Temporal dev server (npm start's or npm test's), a sink writing under .data
      *)
        [ "$cwd" = "$ROOT" ] || continue
        case "$args" in
          *scripts/start.ts*|*scripts/test.sh*|*workers/main.ts*|*scripts/worker.ts*|*api/server.ts*|*scripts/mail-sink.ts*|*scripts/push-sink.ts*|*fake-postmark-main.ts*|*node_modules/.bin/jest*) ;;
          *) continue ;;
        esac
        ;;
    esac
    case "$args" in *scripts/start.ts*|*scripts/test.sh*) first+=("$pid") ;; *) rest+=("$pid") ;; esac
  done
  echo "${first[*]} ${rest[*]}"
}

stop_processes() {
  local pids pid
  read -r -a pids <<<"$(stack_pids)"
  [ "${#pids[@]}" -gt 0 ] || return 0
  say "stopping ${#pids[@]} process(es) of this checkout's stack: ${pids[*]}"
  # SIGTERM: npm start stops its children in order (10 s grace each); test.sh stops its services
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait_gone "$pid" 25 || true; done
  # whatever is left (or was started meanwhile by a supervisor's restart): SIGKILL
  read -r -a pids <<<"$(stack_pids)"
  [ "${#pids[@]}" -gt 0 ] || return 0
  say "killing what did not stop: ${pids[*]}"
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait_gone "$pid" 5 || warn "pid $pid is still there"; done
}
stop_processes

# ---------------------------------------------------------------------------------
# 2. Redis
# ---------------------------------------------------------------------------------
if [ -s "$DATA/redis.pid" ]; then
  pid="$(cat "$DATA/redis.pid")"
  if alive "$pid" && grep -q redis "/proc/$pid/comm" 2>/dev/null; then
    say "stopping Redis (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    wait_gone "$pid" 10 || { kill -KILL "$pid" 2>/dev/null || true; wait_gone "$pid" 5 || warn "Redis (pid $pid) is still there"; }
  fi
fi

# ---------------------------------------------------------------------------------
# 3. PostgreSQL: the cluster goes with the key, or both stay
# ---------------------------------------------------------------------------------
PGDATA_DIR="$DATA/postgres"
[ -s "$DATA/postgres-datadir" ] && PGDATA_DIR="$(cat "$DATA/postgres-datadir")"
PGBIN="$(ls -d $PGBIN_GLOB 2>/dev/null | sort -V | tail -n1 || true)"

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- env HOME=/tmp "$@"); else (cd / && "$@"); fi
}

# The database's URL as the stack used it (.data/env), and whether it is our cluster's.
DB_URL="$(sed -n "s/^export DATABASE_URL='\(.*\)'$/\1/p" "$DATA/env" 2>/dev/null || true)"
KEEP_KEY=0
KEEP_WHY=""
if [ -n "$DB_URL" ] && ! grep -q "port = $(sed -n 's#^postgresql://[^@]*@127\.0\.0\.1:\([0-9]*\)/.*#\1#p' <<<"$DB_URL")\$" "$PGDATA_DIR/project.conf" 2>/dev/null; then
  KEEP_KEY=1
  KEEP_WHY="the database ($DB_URL) is not this checkout's cluster ($PGDATA_DIR)"
fi

if [ -f "$PGDATA_DIR/PG_VERSION" ]; then
  if [ -n "$PGBIN" ] && as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" status >/dev/null 2>&1; then
    say "stopping PostgreSQL ($PGDATA_DIR)"
    as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" stop -m fast -w -t 60 >/dev/null \
      || as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" stop -m immediate -w -t 30 >/dev/null \
      || { warn "PostgreSQL in $PGDATA_DIR did not stop: nothing deleted (see $PGDATA_DIR/postgres.log)"; exit 1; }
  fi
  say "deleting the PostgreSQL cluster $PGDATA_DIR"
  rm -rf "$PGDATA_DIR"
elif [ -n "$DB_URL" ] && [ "$KEEP_KEY" -eq 0 ]; then
  # no cluster of ours, yet the stack had a local URL: another checkout's cluster served it
  KEEP_KEY=1
  KEEP_WHY="the database ($DB_URL) was served by a PostgreSQL that is not this checkout's"
fi

# ---------------------------------------------------------------------------------
# 4. .data (the master key kept when its database stays)
# ---------------------------------------------------------------------------------
if [ "$KEEP_KEY" -eq 1 ] && [ -s "$DATA/webhook-secret-key" ]; then
  kept="$(mktemp "$ROOT/.webhook-secret-key.XXXXXX")"
  cp -p "$DATA/webhook-secret-key" "$kept"
  rm -rf "$DATA"
  mkdir -p "$DATA"
  mv -f "$kept" "$DATA/webhook-secret-key"
  chmod 600 "$DATA/webhook-secret-key"
  say "kept the master key in .data/webhook-secret-key: $KEEP_WHY, and its secrets are sealed with it"
  say "removed everything else in .data"
else
  rm -rf "$DATA"
  say "removed .data (the master key went with the database it sealed)"
fi
say "done: the next npm start or npm test sets everything up again"
