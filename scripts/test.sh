#!/usr/bin/env bash
# Runs every test: native (unit, integration, property) and in headless
# Chromium, and checks that the benchmarks still build and run once.
#
# The browser suite talks to a fake model server (tests/fake_model_server.py,
# python3 standard library) on loopback: it is started before the suite and
# stopped after it, and on any exit. Its address reaches the wasm tests at
# compile time as FAKE_MODEL_URL. Port: FAKE_MODEL_PORT (default 8787); if
# that port is taken, a free one is used instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

FAKE_SERVER_PID=""
FAKE_SERVER_DIR=""

# True while process $1 runs (a zombie does not count).
alive() {
  [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null
}

stop_fake_model_server_process() {
  if [ -n "$FAKE_SERVER_PID" ]; then
    kill -TERM "$FAKE_SERVER_PID" 2>/dev/null || true
    # Bounded wait for it to exit, then make sure.
    for _ in $(seq 1 50); do
      alive "$FAKE_SERVER_PID" || break
      sleep 0.1
    done
    kill -KILL "$FAKE_SERVER_PID" 2>/dev/null || true
    wait "$FAKE_SERVER_PID" 2>/dev/null || true
    FAKE_SERVER_PID=""
  fi
}

stop_fake_model_server() {
  local status=$?
  stop_fake_model_server_process
  if [ -n "$FAKE_SERVER_DIR" ]; then
    if [ "$status" != 0 ] && [ -s "$FAKE_SERVER_DIR/server.log" ]; then
      echo "-- fake model server output:" >&2
      tail -n 60 "$FAKE_SERVER_DIR/server.log" >&2 || true
    fi
    rm -rf "$FAKE_SERVER_DIR"
    FAKE_SERVER_DIR=""
  fi
}
trap stop_fake_model_server EXIT

# Starts the server on port $1 (0 = any free port); on success sets
# FAKE_MODEL_URL, on failure returns 1 with the server stopped.
launch_fake_model_server() {
  local port=$1
  rm -f "$FAKE_SERVER_DIR/port"
  python3 tests/fake_model_server.py --port "$port" --port-file "$FAKE_SERVER_DIR/port" \
    --max-lifetime 1800 --log "$FAKE_SERVER_DIR/access.log" >>"$FAKE_SERVER_DIR/server.log" 2>&1 &
  FAKE_SERVER_PID=$!
  # Bounded wait (about 10 s) for the port file, then for /__health.
  local bound=""
  for _ in $(seq 1 100); do
    if [ -s "$FAKE_SERVER_DIR/port" ]; then bound=$(cat "$FAKE_SERVER_DIR/port"); break; fi
    alive "$FAKE_SERVER_PID" || break
    sleep 0.1
  done
  if [ -z "$bound" ]; then
    stop_fake_model_server_process
    return 1
  fi
  for _ in $(seq 1 50); do
    if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1).read()' \
      "http://127.0.0.1:$bound/__health" 2>/dev/null; then
      export FAKE_MODEL_URL="http://127.0.0.1:$bound"
      return 0
    fi
    alive "$FAKE_SERVER_PID" || break
    sleep 0.1
  done
  stop_fake_model_server_process
  return 1
}

start_fake_model_server() {
  FAKE_SERVER_DIR=$(mktemp -d)
  local port=${FAKE_MODEL_PORT:-8787}
  if ! launch_fake_model_server "$port"; then
    echo "   port $port is not free; using any free loopback port"
    if ! launch_fake_model_server 0; then
      echo "the fake model server did not start:" >&2
      cat "$FAKE_SERVER_DIR/server.log" >&2 || true
      exit 1
    fi
  fi
  echo "   fake model server at $FAKE_MODEL_URL (pid $FAKE_SERVER_PID)"
}

# Each stage says how long it took (the suite's own timing, for notes and
# for finding the slow stage; nothing is asserted on it).
SUITE_STARTED=$(date +%s)
STAGE_STARTED=$SUITE_STARTED
STAGE_NAME=""
stage() {
  local now
  now=$(date +%s)
  if [ -n "$STAGE_NAME" ]; then
    echo "   ($STAGE_NAME: $(( now - STAGE_STARTED )) s)"
  fi
  STAGE_STARTED=$now
  STAGE_NAME=$1
  echo "== $2"
}

stage gates "gates: cargo fmt --check, clippy -D warnings (native and wasm32), lints from Cargo.toml"
cargo fmt --check
cargo clippy --locked --all-targets -- -D warnings
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --tests --examples -- -D warnings

stage native "native tests (cargo test)"
cargo test --locked

stage benches "benchmarks, one quick pass each (cargo test --benches)"
# Criterion runs each benchmark once when cargo test runs it. Built in the
# test profile, the benches reuse the dependencies the native tests just
# built instead of compiling all of them again with the bench profile's
# optimisations (timing them is `cargo bench`'s job, not the suite's).
cargo test --locked --benches

stage fake-server "fake model server self-test (python3 tests/fake_model_server.py --self-test)"
if ! command -v python3 >/dev/null 2>&1; then
  echo "python3 is needed for the fake model server of the browser tests" >&2
  exit 1
fi
timeout 120 python3 tests/fake_model_server.py --self-test

stage browser "browser tests (wasm-pack test --headless --chrome)"
start_fake_model_server
# Each test binary must finish within this many seconds (wasm-bindgen's
# default is 20); the end-to-end suite takes about 6.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-240}
wasm-pack test --headless --chrome -- --locked
stop_fake_model_server

stage e2e "end-to-end tests of the release page in Chromium (scripts/e2e.sh: playwright-core, axe-core)"
./scripts/e2e.sh
stage done "every test passed in $(( $(date +%s) - SUITE_STARTED )) s"
