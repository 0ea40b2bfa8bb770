#!/usr/bin/env bash
# Runs the account suites against a real PostgreSQL server (issue #5): installs the Debian `postgresql` package when
# it is missing (as root, with apt-get), starts a throwaway cluster on 127.0.0.1 in a temporary directory, runs the
# suites with OUTAGE_TEST_PG_URL set, and stops the server. With OUTAGE_TEST_PG_URL already set it only runs the
# suites. Where PostgreSQL cannot be installed it fails under CI (CI=true) and is skipped, with a message, elsewhere.
# With arguments, runs them instead of the suites (e.g. `scripts/test-postgres.sh npx tsx scripts/bench-deliveries.ts`).
set -euo pipefail
cd "$(dirname "$0")/.."
SUITES=(pipeline/test/accounts.test.ts pipeline/test/accounts-abuse.test.ts pipeline/test/deliveries.test.ts pipeline/test/slow-receivers.test.ts pipeline/test/alert-rules-run.test.ts)
CMD=("$@")
[[ ${#CMD[@]} -eq 0 ]] && CMD=(npx vitest run "${SUITES[@]}")

if [[ -n "${OUTAGE_TEST_PG_URL:-}" ]]; then
  exec "${CMD[@]}"
fi

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
BIN="$(bin_dir || true)"
if [[ -z "$BIN" || ! -x "$BIN/initdb" ]]; then
  SUDO=()
  [[ "$(id -u)" != "0" ]] && sudo -n true 2>/dev/null && SUDO=(sudo -n)
  if command -v apt-get >/dev/null && { [[ "$(id -u)" == "0" ]] || [[ ${#SUDO[@]} -gt 0 ]]; }; then
    echo "test-postgres: installing the Debian postgresql package…"
    LOG="$(mktemp /tmp/outage-apt-postgresql.XXXXXX)"
    ("${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >"$LOG" 2>&1 || { cat "$LOG"; rm -f "$LOG"; exit 1; }
    rm -f "$LOG"
    BIN="$(bin_dir)"
  elif [[ "${CI:-}" == "true" ]]; then
    echo "test-postgres: PostgreSQL is not installed and cannot be installed here (need apt-get and root or sudo)." >&2
    exit 1
  else
    echo "test-postgres: SKIPPED — PostgreSQL is not installed (install the postgresql package, or set OUTAGE_TEST_PG_URL)."
    exit 0
  fi
fi

DIR="$(mktemp -d /tmp/outage-pg.XXXXXX)"
PORT=$(( 20000 + RANDOM % 20000 ))
RUN=()
if [[ "$(id -u)" == "0" ]]; then
  chown postgres "$DIR"
  RUN=(runuser -u postgres --)
fi
cleanup() {
  "${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
"${RUN[@]}" "$BIN/initdb" -D "$DIR/data" -A trust -U outage -E UTF8 >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log"; exit 1; }
"${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100" start >/dev/null || { cat "$DIR/server.log"; exit 1; }
echo "test-postgres: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
OUTAGE_TEST_PG_URL="postgres://outage@127.0.0.1:$PORT/postgres" "${CMD[@]}"
