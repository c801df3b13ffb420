#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every
# check CI runs. Tables come from SYZYGY_PATH (default ../shared/syzygy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export SYZYGY_PATH="${SYZYGY_PATH:-$(cd .. && pwd)/shared/syzygy}"

step() { printf '\n== %s\n' "$*"; }

step setup
scripts/setup.sh

step "format and lints"
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo clippy --release --target wasm32-unknown-unknown --lib --test web -- -D warnings

step "Rust tests (differential, rounds, remote, bad input)"
cargo build --release
cargo test --release

step "wasm package"
scripts/build-wasm.sh

step "test server self-test"
node --test tests/server/

step "wasm package in headless Chromium (wasm-bindgen-test, then the fault matrix)"
scripts/wasm-test.sh
RANGE_SERVER_LOG_LIMIT=100000 node --test --test-concurrency=1 tests/browser/

step "front-end build and end-to-end tests"
npm run build
npm run test:e2e

echo
echo "all tests passed"
