#!/usr/bin/env bash
# Installs the S3-compatible server the object-store test starts on 127.0.0.1 (moto's standalone server, `moto[server]`)
# when it is missing, and prints the path of its `moto_server` command as the last line. Safe to run again.
#
# Why moto: it is maintained alongside AWS's own API changes (MD5 ETags, Content-MD5 checks, DeleteObjects,
# ListObjectsV2, the SDK's checksum headers), keeps everything in memory (a test leaves no files behind), and the
# project's machine image already ships it (pip moto 5.2.1 with Flask), so the test runs with no registry at all.
# On a machine without it, pip installs it from whatever index pip is configured with; where the system Python is
# externally managed (Debian), into a private virtual environment under ~/.cache/outage-data.
set -euo pipefail

VENV="${OUTAGE_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/outage-data}/moto"

works() { "$1" --help >/dev/null 2>&1; }

if command -v moto_server >/dev/null 2>&1 && works moto_server; then
  command -v moto_server
  exit 0
fi
if [ -x "$VENV/bin/moto_server" ] && works "$VENV/bin/moto_server"; then
  echo "$VENV/bin/moto_server"
  exit 0
fi

# moto importable but its command not on PATH (a Python whose scripts directory is not on PATH): a wrapper.
if python3 -c 'import moto.server, flask, flask_cors' >/dev/null 2>&1; then
  mkdir -p "$VENV/bin"
  printf '#!/bin/sh\nexec %s -m moto.server "$@"\n' "$(command -v python3)" >"$VENV/bin/moto_server"
  chmod +x "$VENV/bin/moto_server"
  echo "$VENV/bin/moto_server"
  exit 0
fi

echo "install-s3-server: moto_server not found; installing moto[server]" >&2
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m venv --help >/dev/null 2>&1; then
  # Debian's Python and its venv module (needs root, as on CI and the project's machines).
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip >&2
fi
python3 -m venv "$VENV" >&2
"$VENV/bin/pip" install --quiet 'moto[server]>=5,<6' >&2 || {
  echo "install-s3-server: could not install moto[server] with pip (no Python package index reachable?)." >&2
  echo "  Install it by hand (pip install 'moto[server]') or put a moto_server command on PATH, then run this again." >&2
  exit 1
}
works "$VENV/bin/moto_server"
echo "$VENV/bin/moto_server"
