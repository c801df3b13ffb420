#!/usr/bin/env bash
# Cold analysis as users feel it (issue 12): builds what is missing (the CLI,
# the wasm package, the board), then runs tests/browser/cold-bench.mjs: the
# tables served with 100 ms per request over HTTP/1.1 and HTTP/2 (TLS with
# the tests' self-signed certificate; also without Timing-Allow-Origin, and
# HTTP/1.1 over TLS without it), Chromium with a fresh context
# per position, the CLI with --url, and the phone profile on the board.
# Prints median and worst verdict time, full analysis time, requests, bytes
# and waves beside the figures measured before. Options go to the script
# (--per-table N: seeded positions per 5-piece table, default 1; --runs N:
# probes per position, each figure their median;
# --phone-only; --phone-runs N: loads of the board per phone position,
# default 1; --protocol NAME: that column only, e.g. HTTP/1.1, no phone). Needs Chromium and the tables (SYZYGY_PATH).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
bash scripts/setup.sh >/dev/null
[[ -x target/release/syzygy-web ]] || cargo build --release
[[ -f pkg/syzygy_web.js && -f pkg/worker/generator.js ]] || scripts/build-wasm.sh
[[ -f www/dist/index.html ]] || npm run build
exec node tests/browser/cold-bench.mjs "$@"
