#!/usr/bin/env bash
# Installs every tool the project needs, skipping each one already present.
# Safe to run repeatedly: a machine that has everything returns in seconds.
# Usage: scripts/setup.sh            (all tools)
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*" >&2; }
export PATH="$HOME/.cargo/bin:$PATH"

# The wasm-bindgen CLI must match the library version in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
TRUNK_VERSION=0.21.14
# The wasm splitter of the release page (scripts/split-wasm.mjs): the CLI of
# the crate cargo-leptos's `--split` uses, pinned to the one this build was
# tested with (it must understand wasm_split_helpers' markers, Cargo.lock).
WASM_SPLIT_VERSION=0.2.4
WASM_PACK_VERSION=0.15.1
# wasm-opt from the npm registry's `binaryen` package (a node build of binaryen):
# Debian's binaryen 108 breaks wasm-bindgen 0.2.130's tables (WebAssembly.Table.set
# error at load). Trunk.toml pins the same version, so Trunk never uses another one.
BINARYEN_VERSION=132
BINARYEN_DIR="${XDG_DATA_HOME:-$HOME/.local/share}/team-protocols/binaryen-$BINARYEN_VERSION"

# The gates in scripts/test.sh need rustfmt and clippy (the Rust image ships both).
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    log "adding rust component $component"
    rustup component add "$component"
  fi
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

have_version() { # tool expected-version
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q -- "$2"
}

if ! have_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
  # --locked fails for this crate: its lock names a version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
# (wasm-split-cli has no --version: cargo's list of installed crates says it.)
if ! command -v wasm-split-cli >/dev/null 2>&1 || ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  log "installing wasm-split-cli $WASM_SPLIT_VERSION (about 3 minutes)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked --force
fi
if ! have_version wasm-pack "$WASM_PACK_VERSION"; then
  log "installing wasm-pack $WASM_PACK_VERSION (about 3 minutes)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
fi

apt_missing=()
command -v chromium >/dev/null 2>&1 || apt_missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || apt_missing+=(chromium-driver)
command -v npm >/dev/null 2>&1 || apt_missing+=(npm)
command -v python3 >/dev/null 2>&1 || apt_missing+=(python3)
if [ "${#apt_missing[@]}" -gt 0 ]; then
  log "installing ${apt_missing[*]} with apt-get"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi

# A `wasm-opt` wrapper in ~/.cargo/bin, ahead of /usr/bin on PATH, where Trunk looks.
if ! have_version wasm-opt "version_$BINARYEN_VERSION"; then
  log "installing wasm-opt (binaryen $BINARYEN_VERSION from npm) into $BINARYEN_DIR"
  mkdir -p "$BINARYEN_DIR" "$HOME/.cargo/bin"
  (cd "$BINARYEN_DIR" && npm install --silent --no-audit --no-fund --prefix . "binaryen@$BINARYEN_VERSION.0.0" >/dev/null)
  printf '#!/bin/sh\n# binaryen %s from npm, installed by team-protocols scripts/setup.sh\nexec node "%s/node_modules/binaryen/bin/wasm-opt" "$@"\n' \
    "$BINARYEN_VERSION" "$BINARYEN_DIR" > "$HOME/.cargo/bin/wasm-opt"
  chmod +x "$HOME/.cargo/bin/wasm-opt"
  have_version wasm-opt "version_$BINARYEN_VERSION" || { log "wasm-opt $BINARYEN_VERSION is not first on PATH: put \$HOME/.cargo/bin before /usr/bin"; exit 1; }
fi

if [ "${SETUP_SKIP_TRUNK:-0}" != 1 ] && ! have_version trunk "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION (about 10 minutes)"
  # trunk 0.22 needs a newer rustc than this toolchain has.
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi
log "all tools present"

# ---- End-to-end test tools (tests/e2e, run by scripts/e2e.sh) --------------
# Node.js 20+ and npm, then playwright-core and axe-core at the versions in
# tests/e2e/package-lock.json into tests/e2e/node_modules (npm ci). The
# browser is Debian's Chromium, installed above: no browser download.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  log "installing nodejs and npm with apt-get"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -f tests/e2e/node_modules/playwright-core/package.json ] || [ ! -f tests/e2e/node_modules/axe-core/package.json ]; then
  log "installing the end-to-end test packages (npm ci in tests/e2e)"
  (cd tests/e2e && npm ci --no-audit --no-fund)
fi
log "end-to-end test tools present"
