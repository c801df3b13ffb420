#!/usr/bin/env bash
# Prints the folder of Syzygy tables the demo and the tests use:
#   1. SYZYGY_PATH, when set;
#   2. ../shared/syzygy (the official tables), when present;
#   3. otherwise the 3-4 piece set made by our own generator, once, in
#      ${SYZYGY_WEB_CACHE:-$HOME/.cache/syzygy-web}/tables (a few minutes on
#      2 cores, with a progress bar; later runs reuse it).
# Progress and messages go to standard error; the folder to standard output.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if [[ -n "${SYZYGY_PATH:-}" ]]; then
  echo "$SYZYGY_PATH"
  exit 0
fi
official="$(cd .. && pwd)/shared/syzygy"
if [[ -f "$official/KQvK.rtbw" ]]; then
  echo "$official"
  exit 0
fi
dir="${SYZYGY_WEB_CACHE:-$HOME/.cache/syzygy-web}/tables"
if [[ ! -f "$dir/.complete" ]]; then
  echo "No tables at $official: generating the 3-4 piece set (WDL and DTZ) into $dir" >&2
  cargo build --release --quiet >&2
  mkdir -p "$dir"
  target/release/syzygy-web generate --max 4 --out "$dir" >&2
  # Our exact-values files are only needed while generating.
  rm -f "$dir"/*.swv
  touch "$dir/.complete"
fi
echo "Using generated tables in $dir" >&2
echo "$dir"
