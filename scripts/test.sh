#!/usr/bin/env bash
# Runs every test: native (unit, integration, property) and in headless
# Chromium, and checks that the benchmarks still build and run once.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

echo "== native tests (cargo test)"
cargo test --locked

echo "== benchmarks, one quick pass each (cargo bench -- --test)"
cargo bench --locked --benches -- --test

echo "== browser tests (wasm-pack test --headless --chrome)"
wasm-pack test --headless --chrome -- --locked
