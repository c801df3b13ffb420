#!/usr/bin/env bash
# Generator benchmark: wall time, CPU time and peak memory per table, with 1
# and 2 threads, mate distances included, beside the original C generator's
# figures measured on this kind of machine (2 threads, WDL + DTZ only).
#   scripts/bench-generate.sh [MATERIAL...]     default: KQvKR KRvKN KBNvK, then the 3-4 piece set
#   BENCH_5=1 scripts/bench-generate.sh         also KRPvKR (generates its 5-piece sub-tables first)
#   TBGEN=DIR scripts/bench-generate.sh         the C generator too, in the same run: DIR holds its
#                                               built rtbgen and rtbgenp (make rtbgen rtbgenp in its
#                                               src folder); it reads its sub-tables from SYZYGY_PATH
#                                               (default ../shared/syzygy) and its figures replace
#                                               the issue's, which were measured on another day
# Sub-materials are generated once, untimed, into a scratch directory, so
# each figure is the named table alone (as the C generator reads its
# sub-tables from RTBPATH).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/syzygy-web
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

declare -A reference=([KQvKR]="2.6 s" [KRvKN]="3.4 s" [KBNvK]="4.8 s" [KRPvKR]="167 s, 631 MB" [3-4]="80 s")
materials=("$@")
if [[ ${#materials[@]} -eq 0 ]]; then
  materials=(KQvKR KRvKN KBNvK)
  [[ -n "${BENCH_5:-}" ]] && materials+=(KRPvKR)
fi

# Everything the named tables need, untimed.
for m in "${materials[@]}"; do
  "$bin" generate "$m" --dtm --out "$scratch" 2>/dev/null
done

reference_label="C generator (2 threads, no DTM; the issue's figures)"
if [[ -n "${TBGEN:-}" ]]; then
  tables="$(realpath "${SYZYGY_PATH:-../shared/syzygy}")"
  cdir="$(mktemp -d -p "$scratch")"
  # The C generator on `names`, one after another: wall seconds in all and
  # the largest peak (MB as in our rows).
  c_gen() {
    local wall=0 peak=0 m prog w kb
    for m in "$@"; do
      prog=rtbgen
      [[ $m == *P* ]] && prog=rtbgenp
      (cd "$cdir" && RTBPATH="$tables" /usr/bin/time -o "$scratch/ctime" -f '%e %M' "$TBGEN/$prog" -t 2 "$m" >/dev/null 2>&1)
      read -r w kb <"$scratch/ctime"
      wall="$(awk -v a="$wall" -v b="$w" 'BEGIN { print a + b }')"
      ((kb > peak)) && peak=$kb
    done
    printf '%.2f s, %d MB' "$wall" "$((peak / 1024))"
  }
  for m in "${materials[@]}"; do
    reference[$m]="$(c_gen "$m")"
  done
  if [[ $# -eq 0 ]]; then
    mapfile -t small < <(ls "$tables" | sed -n 's/\.rtbw$//p' | awk 'length($0) <= 5')
    reference[3-4]="$(c_gen "${small[@]}") (${#small[@]} tables)"
  fi
  reference_label="C generator (2 threads, no DTM; this run)"
fi

printf '%-8s %7s %9s %9s %9s   %s\n' table threads "wall s" "CPU s" "peak MB" "$reference_label"
run() { # label threads args...
  local label="$1" threads="$2"
  shift 2
  /usr/bin/time -o "$scratch/time" -f '%e %U %S %M' "$bin" generate "$@" --dtm --threads "$threads" >/dev/null 2>&1
  local wall user sys kb
  read -r wall user sys kb <"$scratch/time"
  printf '%-8s %7s %9.2f %9.2f %9.0f   %s\n' "$label" "$threads" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$((kb / 1024))" "${reference[$label]:-}"
}
for m in "${materials[@]}"; do
  for threads in 1 2; do
    # The table itself is generated again (a values file in --out is reused).
    rm -f "$scratch/$m.swv"
    run "$m" "$threads" "$m" --out "$scratch"
  done
done
if [[ $# -eq 0 ]]; then
  for threads in 1 2; do
    fresh="$(mktemp -d -p "$scratch")"
    run 3-4 "$threads" --max 4 --out "$fresh"
  done
fi
