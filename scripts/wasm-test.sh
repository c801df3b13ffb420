#!/usr/bin/env bash
# Runs tests/web.rs (wasm-bindgen-test) in headless Chromium against the
# project's Range server serving SYZYGY_PATH. wasm-bindgen's runner only
# serves the test page (NO_HEADLESS); tests/wasm-bindgen-page.mjs opens it
# through playwright-core, as every other browser test here does.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
tables="${SYZYGY_PATH:-$(cd .. && pwd)/shared/syzygy}"
server_log=$(mktemp)
runner_log=$(mktemp)
pids=()
# Each background job leads its own process group (setsid), so the kill
# reaches wasm-bindgen's runner under cargo too.
trap 'for p in ${pids[@]+"${pids[@]}"}; do kill -- "-$p" 2>/dev/null || true; done; rm -f "$server_log" "$runner_log"' EXIT

# Waits for a line "... PREFIX URL" in a log and prints the URL.
url_in() {
  for _ in $(seq 600); do
    url=$(sed -n "s|^$2 *||p" "$1" | head -1)
    if [ -n "$url" ]; then echo "$url"; return; fi
    sleep 0.1
  done
  echo "no '$2' line in 60 s:" >&2; cat "$1" >&2; return 1
}

setsid node tests/server/range-server.mjs --port 0 --tables "$tables" >"$server_log" &
pids+=($!)
export SYZYGY_TEST_URL
SYZYGY_TEST_URL=$(url_in "$server_log" "listening on")
cargo test --release --target wasm32-unknown-unknown --test web --no-run

NO_HEADLESS=1 WASM_BINDGEN_TEST_ADDRESS=127.0.0.1:0 \
  setsid cargo test --release --target wasm32-unknown-unknown --test web >"$runner_log" 2>&1 &
pids+=($!)
page=$(url_in "$runner_log" "Interactive browsers tests are now available at")
# A page that never reports (exit 2) is opened again in a new browser, twice
# at most; a failed test (exit 1) is final.
for attempt in 1 2 3; do
  rc=0
  node tests/wasm-bindgen-page.mjs "$page" 120 || rc=$?
  [ "$rc" -ne 2 ] && exit "$rc"
  echo "wasm-bindgen-test: attempt $attempt never reported" >&2
done
exit 2
