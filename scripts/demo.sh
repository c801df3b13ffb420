#!/usr/bin/env bash
# The README's demo command: builds the wasm package and the site, then
# serves both with the project's Range server and prints the URL.
#   scripts/demo.sh [--port N] [--tables DIR]...
# Default tables: SYZYGY_PATH, ../shared/syzygy, or else a 3-4 piece set our
# generator makes once (scripts/tables.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
port=8080
tables=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --tables) tables+=(--tables "$2"); shift 2 ;;
    *) echo "usage: scripts/demo.sh [--port N] [--tables DIR]..." >&2; exit 2 ;;
  esac
done
scripts/setup.sh --no-browser
if [[ ${#tables[@]} -eq 0 ]]; then
  tables=(--tables "$(scripts/tables.sh)")
fi
scripts/build-wasm.sh
npm run build
echo "Open the URL below; press Ctrl-C to stop."
exec node tests/server/range-server.mjs --port "$port" --static www/dist "${tables[@]}"
