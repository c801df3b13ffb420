#!/usr/bin/env bash
# scripts/setup.sh: install what the demo, the tests and CI need. Idempotent:
# each step is skipped when its tool is already present, one line per step.
#
#   scripts/setup.sh [--no-browser] [--no-npm]
#
# Steps:
#   1. rustup target wasm32-unknown-unknown, components rustfmt and clippy
#   2. wasm-bindgen CLI at exactly the version of the wasm-bindgen crate
#      (Cargo.lock, else the `=x.y.z` pin in Cargo.toml)
#   3. Chromium from apt (skipped by --no-browser)
#   4. npm dependencies: `npm ci` (or `npm install` without a lockfile) unless
#      a finished install newer than the lockfile is on record (skipped by --no-npm).
#      Browsers are never downloaded by npm tooling: tests use /usr/bin/chromium.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

WANT_BROWSER=1
WANT_NPM=1
for arg in "$@"; do
  case "$arg" in
    --no-browser) WANT_BROWSER=0 ;;
    --no-npm) WANT_NPM=0 ;;
    -h | --help)
      sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "setup: unknown option: $arg (try --help)" >&2
      exit 2
      ;;
  esac
done

say() { printf 'setup: %-14s %s\n' "$1" "$2"; }
die() {
  printf 'setup: %-14s ERROR: %s\n' "$1" "$2" >&2
  exit 1
}
# A download that fails once (a registry's or mirror's hiccup) is tried again.
twice() {
  "$@" || {
    say "retry" "$* failed; once more in 10 s"
    sleep 10
    "$@"
  }
}

# cargo-installed tools live here; make them visible to the checks below.
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
if [[ -d "$CARGO_BIN" && ":$PATH:" != *":$CARGO_BIN:"* ]]; then
  PATH="$CARGO_BIN:$PATH"
fi

# --- 1. wasm32 target --------------------------------------------------------
TARGET=wasm32-unknown-unknown
command -v rustup >/dev/null 2>&1 || die "wasm target" "rustup not found; install Rust with rustup first"
if rustup target list --installed | grep -qx "$TARGET"; then
  say "wasm target" "$TARGET already installed"
else
  say "wasm target" "installing $TARGET"
  rustup target add "$TARGET"
fi
# The test command checks formatting and lints: a minimal profile has neither.
# (The list read whole first: grep -q closing the pipe early fails it under pipefail.)
components="$(rustup component list --installed)"
for component in rustfmt clippy; do
  if grep -q "^$component" <<<"$components"; then
    say "$component" "already installed"
  else
    say "$component" "installing the rustup component"
    rustup component add "$component"
  fi
done

# --- 2. wasm-bindgen CLI -----------------------------------------------------
# Prints the version of the wasm-bindgen crate, or nothing.
wasm_bindgen_version() {
  local v=""
  if [[ -f Cargo.lock ]]; then
    v="$(awk '
      /^\[\[package\]\]/ { name = "" }
      /^name = /         { name = $3 }
      /^version = / && name == "\"wasm-bindgen\"" { gsub(/"/, "", $3); print $3; exit }
    ' Cargo.lock)"
  fi
  if [[ -z "$v" && -f Cargo.toml ]]; then
    # wasm-bindgen = "=0.2.x"  or  wasm-bindgen = { version = "=0.2.x", ... }
    v="$(sed -nE 's/^[[:space:]]*wasm-bindgen[[:space:]]*=[[:space:]]*(\{[^}]*version[[:space:]]*=[[:space:]]*)?"=?[[:space:]]*([0-9]+\.[0-9]+\.[0-9]+)".*/\2/p' Cargo.toml | head -n 1)"
  fi
  printf '%s' "$v"
}

WB_VERSION="$(wasm_bindgen_version)"
if [[ -z "$WB_VERSION" ]]; then
  say "wasm-bindgen" "skipped: no wasm-bindgen dependency in Cargo.lock or Cargo.toml yet"
else
  have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
  if [[ "$have" == "$WB_VERSION" ]]; then
    say "wasm-bindgen" "CLI $WB_VERSION already installed"
  else
    say "wasm-bindgen" "installing wasm-bindgen-cli $WB_VERSION (found: ${have:-none}; takes a few minutes)"
    # --locked can name a dependency version the registry no longer serves;
    # then resolve afresh.
    cargo install wasm-bindgen-cli --version "$WB_VERSION" --locked ||
      cargo install wasm-bindgen-cli --version "$WB_VERSION"
  fi
fi

# --- 3. Chromium -------------------------------------------------------------
if [[ "$WANT_BROWSER" == 0 ]]; then
  say "chromium" "skipped (--no-browser)"
elif [[ -x /usr/bin/chromium ]]; then
  say "chromium" "/usr/bin/chromium already installed"
else
  command -v apt-get >/dev/null 2>&1 || die "chromium" "apt-get not found; install chromium by hand or pass --no-browser"
  SUDO=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "chromium" "not root and no sudo; install chromium by hand or pass --no-browser"
    SUDO=(sudo)
  fi
  say "chromium" "installing chromium with apt-get"
  twice ${SUDO[@]+"${SUDO[@]}"} apt-get update
  twice ${SUDO[@]+"${SUDO[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

# --- 4. npm dependencies -----------------------------------------------------
if [[ "$WANT_NPM" == 0 ]]; then
  say "npm" "skipped (--no-npm)"
elif [[ ! -f package.json ]]; then
  say "npm" "skipped: no package.json"
else
  command -v npm >/dev/null 2>&1 || die "npm" "npm not found; install Node.js 20 and npm"
  # node --test's --test-concurrency and --test-timeout came in 20.10 and 20.11.
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 11) ? 0 : 1)' ||
    die "node" "Node.js $(node --version) is too old: the tests need Node.js 20.11 or later"
  # Written once an install has finished: an interrupted one leaves a
  # node_modules as new as any, but no record.
  done_mark=node_modules/.syzygy-web-installed
  reason=""
  if [[ ! -d node_modules ]]; then
    reason="node_modules missing"
  elif [[ ! -f "$done_mark" ]]; then
    reason="no finished install on record"
  elif [[ -f package-lock.json && package-lock.json -nt "$done_mark" ]]; then
    reason="package-lock.json newer than the last install"
  elif [[ ! -f package-lock.json && package.json -nt "$done_mark" ]]; then
    reason="package.json newer than the last install"
  fi
  if [[ -z "$reason" ]]; then
    say "npm" "node_modules up to date"
  elif [[ -f package-lock.json ]]; then
    say "npm" "running npm ci ($reason)"
    twice npm ci --no-audit --no-fund
    touch "$done_mark"
  else
    say "npm" "running npm install ($reason)"
    twice npm install --no-audit --no-fund
    touch "$done_mark"
  fi
fi

say "done" "ok"
