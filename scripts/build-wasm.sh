#!/usr/bin/env bash
# Builds pkg/: the wasm module, its JS glue (with the runtime snippet) and
# TypeScript types, then shrinks it with wasm-opt from the npm binaryen
# package when installed, and prints the sizes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
cargo build --profile wasm-release --target wasm32-unknown-unknown --lib
rm -rf pkg
wasm-bindgen --target web --out-dir pkg target/wasm32-unknown-unknown/wasm-release/syzygy_web.wasm
if [[ -x node_modules/.bin/wasm-opt ]]; then
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    pkg/syzygy_web_bg.wasm -o pkg/syzygy_web_bg.wasm
fi
wasm=$(stat -c %s pkg/syzygy_web_bg.wasm)
js=$(cat pkg/syzygy_web.js pkg/snippets/*/src/web/*.js | wc -c)
gz=$(cat pkg/syzygy_web_bg.wasm pkg/syzygy_web.js pkg/snippets/*/src/web/*.js | gzip -9 | wc -c)
echo "pkg: wasm $wasm bytes, js $js bytes, gzipped together $gz bytes"
