#!/usr/bin/env bash
# Builds pkg/: the page's wasm module (the decoder), its JS glue (with the
# runtime snippet) and TypeScript types; and pkg/worker/: the generation
# worker's module (the `worker` feature alone: the generator), which a page
# loads when it first makes a table. Shrinks both with wasm-opt from the
# npm binaryen package when installed, and prints the sizes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out=target/wasm32-unknown-unknown/wasm-release/syzygy_web.wasm
rm -rf pkg
cargo build --profile wasm-release --target wasm32-unknown-unknown --lib
wasm-bindgen --target web --out-dir pkg "$out"
cargo build --profile wasm-release --target wasm32-unknown-unknown --lib --no-default-features --features worker
wasm-bindgen --target web --out-dir pkg/worker --out-name generator "$out"
shrink() {
  if [[ -x node_modules/.bin/wasm-opt ]]; then
    node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
      --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue "$1" -o "$1"
  fi
}
shrink pkg/syzygy_web_bg.wasm
shrink pkg/worker/generator_bg.wasm
wasm=$(stat -c %s pkg/syzygy_web_bg.wasm)
js=$(cat pkg/syzygy_web.js pkg/snippets/*/src/web/*.js | wc -c)
gz=$(cat pkg/syzygy_web_bg.wasm pkg/syzygy_web.js pkg/snippets/*/src/web/*.js | gzip -9 | wc -c)
worker=$(cat pkg/worker/generator_bg.wasm pkg/worker/generator.js | gzip -9 | wc -c)
echo "pkg: wasm $wasm bytes, js $js bytes, gzipped together $gz bytes; the generation worker's module $worker bytes gzipped"
