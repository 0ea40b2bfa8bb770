#!/usr/bin/env bash
# Makes Debian's nginx available for the web-server tests (issue #11 part 4): prints the path of a working nginx and
# exits 0, installing the Debian `nginx` package with apt-get (as root, or with passwordless sudo) when it is missing.
# The package is not started as a system service: a temporary policy-rc.d keeps apt from launching nginx on port 80
# (the tests run their own nginx on a free loopback port). Where nginx cannot be installed it prints nothing on stdout
# and a reason on stderr, and exits 2; the test then skips with that reason (or fails under CI=true).
# OUTAGE_NGINX names another binary to use instead. Debian's ngx_brotli static module
# (libnginx-mod-http-brotli-static, for the site's `brotli_static on;`) is installed beside it when missing, best
# effort: the test loads it from BROTLI_MODULE below when it is there (and requires it under CI=true).
set -euo pipefail

works() { [[ -x "$1" ]] && "$1" -v >/dev/null 2>&1; }
found() {
  local c
  for c in /usr/sbin/nginx /usr/bin/nginx /usr/local/sbin/nginx "$(command -v nginx 2>/dev/null || true)"; do
    if [[ -n "$c" ]] && works "$c"; then echo "$c"; return 0; fi
  done
  return 1
}

if [[ -n "${OUTAGE_NGINX:-}" ]]; then
  if works "$OUTAGE_NGINX"; then echo "$OUTAGE_NGINX"; exit 0; fi
  echo "install-nginx: OUTAGE_NGINX=$OUTAGE_NGINX is not an executable nginx." >&2
  exit 2
fi
BROTLI_MODULE=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
complete() { found >/dev/null && [[ -e "$BROTLI_MODULE" ]]; }
if complete; then found; exit 0; fi

# What cannot be installed here: nginx present is enough (the brotli part of the test is skipped), else a reason.
cannot() {
  if found >/dev/null; then
    echo "install-nginx: $1; the brotli_static module is not installed." >&2
    found
    exit 0
  fi
  echo "install-nginx: nginx is not installed and $1." >&2
  exit 2
}
SUDO=()
if [[ "$(id -u)" != "0" ]]; then
  if sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
    cannot "cannot be installed here (need root or passwordless sudo for apt-get install nginx)"
  fi
fi
if ! command -v apt-get >/dev/null; then
  cannot "this machine has no apt-get; install nginx and set OUTAGE_NGINX to its path"
fi

# One installer at a time (the lock is this script itself, so no lock file is left behind).
exec 9<"$0"
flock -w 900 9 || { echo "install-nginx: timed out waiting for another install of nginx." >&2; exit 2; }
if complete; then found; exit 0; fi

# Keep the package's service from starting (and taking port 80) while it installs; removed again on exit.
POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=0
if [[ ! -e "$POLICY" ]]; then
  printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$POLICY" >/dev/null
  "${SUDO[@]}" chmod 755 "$POLICY"
  OWN_POLICY=1
fi
LOG="$(mktemp /tmp/outage-apt-nginx.XXXXXX)"
cleanup() {
  rm -f "$LOG"
  if [[ "$OWN_POLICY" == "1" ]]; then "${SUDO[@]}" rm -f "$POLICY"; fi
}
trap cleanup EXIT

apt_install() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; }
"${SUDO[@]}" apt-get update -qq >"$LOG" 2>&1 || true
if ! found >/dev/null; then
  echo "install-nginx: installing the Debian nginx package…" >&2
  if ! apt_install nginx >>"$LOG" 2>&1; then
    tail -20 "$LOG" >&2
    echo "install-nginx: apt-get install nginx failed (output above)." >&2
    exit 2
  fi
  found >/dev/null || { echo "install-nginx: the nginx package installed but /usr/sbin/nginx does not run." >&2; exit 2; }
fi
if [[ ! -e "$BROTLI_MODULE" ]]; then
  echo "install-nginx: installing the Debian brotli_static module (libnginx-mod-http-brotli-static)…" >&2
  apt_install libnginx-mod-http-brotli-static >>"$LOG" 2>&1 || { tail -5 "$LOG" >&2; echo "install-nginx: the brotli_static module did not install (output above); nginx alone serves." >&2; }
fi
found
