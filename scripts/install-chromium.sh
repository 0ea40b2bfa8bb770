#!/usr/bin/env bash
# Makes Debian's Chromium available for the browser tests (issue #13): prints the path of a working chromium and
# exits 0, installing the Debian `chromium` package with apt-get (as root, or with passwordless sudo) when it is
# missing. Browser downloads (`npx playwright install`) do not work here, so the distribution's package is the way.
# Where it cannot be installed it prints nothing on stdout and a reason on stderr, and exits 2; the tests then skip
# with that reason (or fail under CI=true, as scripts/test-postgres.sh does for PostgreSQL).
# OUTAGE_CHROMIUM names another binary to use instead.
set -euo pipefail

found() {
  local c
  for c in /usr/bin/chromium /usr/bin/chromium-browser; do
    if [[ -x "$c" ]] && "$c" --version >/dev/null 2>&1; then echo "$c"; return 0; fi
  done
  return 1
}

if [[ -n "${OUTAGE_CHROMIUM:-}" ]]; then
  if [[ -x "$OUTAGE_CHROMIUM" ]] && "$OUTAGE_CHROMIUM" --version >/dev/null 2>&1; then echo "$OUTAGE_CHROMIUM"; exit 0; fi
  echo "install-chromium: OUTAGE_CHROMIUM=$OUTAGE_CHROMIUM is not an executable chromium." >&2
  exit 2
fi
if found; then exit 0; fi

SUDO=()
if [[ "$(id -u)" != "0" ]]; then
  if sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    echo "install-chromium: chromium is not installed and cannot be installed here (need root or passwordless sudo for apt-get install chromium)." >&2
    exit 2
  fi
fi
if ! command -v apt-get >/dev/null; then
  echo "install-chromium: chromium is not installed and this machine has no apt-get; install Chromium and set OUTAGE_CHROMIUM to its path." >&2
  exit 2
fi

# One installer at a time (test files that need the browser may start together); the lock is this script itself,
# so no lock file is left behind.
exec 9<"$0"
flock -w 900 9 || { echo "install-chromium: timed out waiting for another install of chromium." >&2; exit 2; }
if found; then exit 0; fi
echo "install-chromium: installing the Debian chromium package…" >&2
LOG="$(mktemp /tmp/outage-apt-chromium.XXXXXX)"
if ! ("${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium) >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  rm -f "$LOG"
  echo "install-chromium: apt-get install chromium failed (output above)." >&2
  exit 2
fi
rm -f "$LOG"
found || { echo "install-chromium: the chromium package installed but /usr/bin/chromium does not run." >&2; exit 2; }
