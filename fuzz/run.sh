#!/usr/bin/env bash
# Builds the seed corpora from the real tables and runs every fuzz target
# for MINUTES each (default 2), niced, then prints executions per target.
#
#   fuzz/run.sh [MINUTES]           all targets
#   TARGETS="page_store" fuzz/run.sh 5
#
# Tables come from SYZYGY_PATH (default ../shared/syzygy beside the
# checkout) and are never copied into the repository: corpora live in
# fuzz/corpus/ and crashes in fuzz/artifacts/, both git-ignored.
set -euo pipefail

MINUTES="${1:-2}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
export SYZYGY_PATH="${SYZYGY_PATH:-$(cd "$HERE/../.." && pwd)/shared/syzygy}"
TARGETS="${TARGETS:-table_bytes fen_probe page_store}"
# The crate forbids unsafe code, so AddressSanitizer buys little and costs
# half the speed; SANITIZER=address turns it back on.
SANITIZER="${SANITIZER:-none}"
SECONDS_PER_TARGET=$((MINUTES * 60))

[ -d "$SYZYGY_PATH" ] || { echo "no tables at $SYZYGY_PATH" >&2; exit 1; }
cargo +nightly fuzz --version >/dev/null 2>&1 || {
    echo "cargo-fuzz missing: cargo install cargo-fuzz" >&2
    exit 1
}

byte() { printf "\\x$(printf %02x "$1")"; }

# table_bytes: a selector byte (table, page size 4 KiB) and the table's
# first 64 KiB (and 1 KiB, 512 B pages) laid over the real file; small
# tables also whole, as the exact file (bit 7). The order matches TABLES in the target.
TABLES=(KRvK.rtbw KRvK.rtbz KQvK.rtbz KBBvK.rtbw KBNvK.rtbw KPvK.rtbw KPvK.rtbz
        KPvKP.rtbz KPPvK.rtbw KPPvK.rtbz KQvKR.rtbw KRvKR.rtbw KQvKQ.rtbz
        KNvKP.rtbz KRPvK.rtbz KBvKP.rtbz)
mkdir -p corpus/table_bytes corpus/fen_probe corpus/page_store
for i in "${!TABLES[@]}"; do
    f="$SYZYGY_PATH/${TABLES[$i]}"
    { byte $((i | 0x30)); head -c 65536 "$f"; } >"corpus/table_bytes/head-${TABLES[$i]}"
    # Short overlays keep the mutations on the header and the indexes.
    { byte $((i | 0x00)); head -c 1024 "$f"; } >"corpus/table_bytes/head1k-${TABLES[$i]}"
    if [ "$(stat -c %s "$f")" -le 65536 ]; then
        { byte $((i | 0xb0)); cat "$f"; } >"corpus/table_bytes/whole-${TABLES[$i]}"
    fi
done

# fen_probe: FENs of every shape the tables here cover, and near misses.
n=0
while IFS= read -r fen; do
    printf '%s' "$fen" >"corpus/fen_probe/seed-$n"
    n=$((n + 1))
done <<'EOF'
4k3/8/8/8/8/8/8/4K3 w - - 0 1
4k3/8/8/8/8/8/8/4K2R w - - 0 1
4k3/8/8/8/8/8/8/4K2R w K - 0 1
4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1
8/8/8/8/3pP3/8/5K2/k7 b - e3 0 1
7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
7k/6Q1/6K1/8/8/8/8/8 b - - 0 1
8/8/3k4/8/2r5/8/4P3/R3K3 w - - 0 1
8/3k4/8/8/3q4/8/4P3/Q3K3 b - - 0 1
8/8/8/4k3/8/8/8/2BBKB2 w - - 0 1
7r/8/8/4k3/8/8/8/R2RK3 b - - 57 90
7q/8/8/4k3/8/8/8/1QQ1K3 w - - 0 1
7k/8/8/2KQ4/8/8/3p4/8 w - - 0 1
8/8/8/8/8/8/6k1/4KR1r w - - 99 1
8/6P1/8/8/8/8/k6K/6r1 w - - 0 1
4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1
4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1
EOF

# page_store: each position as the first probe, both drivers, 512 B and
# 4 KiB pages; the decisions that follow start empty (clean answers).
for i in $(seq 0 15); do
    { byte "$i"; byte 3; byte 0; } >"corpus/page_store/lib-$i"
    { byte $((i | 0x40)); byte 0; byte 1; } >"corpus/page_store/own-$i"
done

nice -n 15 cargo +nightly fuzz build -s "$SANITIZER" -a --release

declare -A EXECS
for t in $TARGETS; do
    log="$HERE/artifacts/$t.log"
    mkdir -p "$HERE/artifacts/$t"
    max_len=4096
    [ "$t" = table_bytes ] && max_len=65600
    extra=()
    [ "$t" = fen_probe ] && extra=(-dict="$HERE/fen.dict")
    echo "== $t: $MINUTES min" >&2
    set +e
    nice -n 15 cargo +nightly fuzz run -s "$SANITIZER" -a --release "$t" "corpus/$t" -- \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
        -max_len="$max_len" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || true)
    EXECS[$t]="${execs:-?} executions"
    if [ "$rc" -ne 0 ]; then
        EXECS[$t]+=", FAILED (exit $rc): see $log and $HERE/artifacts/$t/"
    fi
done

echo "executions per target (${MINUTES} min each):"
for t in $TARGETS; do
    echo "  $t: ${EXECS[$t]}"
done
