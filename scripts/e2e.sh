#!/usr/bin/env bash
# End-to-end tests of the release build in Debian's Chromium (tests/e2e:
# playwright-core and axe-core, installed by scripts/setup.sh).
#
# Builds the page with `trunk build --release` into a temporary directory
# (or uses E2E_DIST, an existing build), serves it with python3's
# http.server on 127.0.0.1 (any free port), runs tests/e2e/run.mjs against
# it, and stops the server and removes the directory on any exit.
# E2E_SCREENSHOTS=DIR keeps a screenshot of each size and theme there.
# Closes with "e2e: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

E2E_TMP=$(mktemp -d)
E2E_SERVER_PID=""
stop_e2e() {
  if [ -n "$E2E_SERVER_PID" ]; then
    kill -TERM "$E2E_SERVER_PID" 2>/dev/null || true
    wait "$E2E_SERVER_PID" 2>/dev/null || true
    E2E_SERVER_PID=""
  fi
  rm -rf "$E2E_TMP"
}
trap stop_e2e EXIT

started=$(date +%s)
for pkg in playwright-core axe-core; do
  if [ ! -d "tests/e2e/node_modules/$pkg" ]; then
    echo "tests/e2e/node_modules/$pkg is missing: run scripts/setup.sh" >&2
    exit 1
  fi
done

dist=${E2E_DIST:-}
if [ -z "$dist" ]; then
  dist="$E2E_TMP/dist"
  echo "   building the release page (trunk build --release)"
  trunk build --release --dist "$dist" >"$E2E_TMP/trunk.log" 2>&1 || { tail -n 40 "$E2E_TMP/trunk.log" >&2; exit 1; }
fi

python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$dist" >"$E2E_TMP/server.log" 2>&1 &
E2E_SERVER_PID=$!
port=""
for _ in $(seq 1 100); do
  port=$(grep -o 'port [0-9]*' "$E2E_TMP/server.log" 2>/dev/null | head -n1 | cut -d' ' -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "the page server did not start:" >&2
  cat "$E2E_TMP/server.log" >&2 || true
  exit 1
fi
echo "   serving $dist at http://127.0.0.1:$port/ (pid $E2E_SERVER_PID)"

status=0
E2E_BASE_URL="http://127.0.0.1:$port/" node tests/e2e/run.mjs || status=$?
echo "   end-to-end suite: $(( $(date +%s) - started )) s including the build"
exit "$status"
