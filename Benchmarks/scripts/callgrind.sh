#!/usr/bin/env bash
# Instructions per operation of one side of a paired benchmark, counted by callgrind:
# repeatable on a noisy machine, where timings are not.
#
#   Benchmarks/scripts/callgrind.sh ID [SIDE] [N]
#
# SIDE is loupe, other or both (default both). The side runs N and 2N times (default N=2000);
# the difference divided by N is the cost of one operation, without the setup. With
# ANNOTATE=1 the larger run's profile is printed by callgrind_annotate (top functions).
# With THREAD=main only the process's main thread is counted (callgrind --separate-threads):
# the program's own cost in a benchmark whose other threads (a writer, a reading client)
# batch their work differently from run to run, which makes all-thread counts swing.
# Needs a release build: swift build -c release --package-path Benchmarks --product loupe-bench
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
id="${1:?usage: callgrind.sh ID [loupe|other|both] [N]}"
side="${2:-both}"
n="${3:-2000}"
bin="${LOUPE_BENCH_BIN:-$here/.build/release/loupe-bench}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

thread="${THREAD:-all}"
case "$thread" in all | main) ;; *) echo "THREAD must be all or main" >&2; exit 2 ;; esac

# One hash seed for every run, as the harness does: a random one moves counts by up to 10%.
export SWIFT_DETERMINISTIC_HASHING=1

count() {  # side iterations -> total instructions
  if [ "$thread" = main ]; then
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/$1.$2.out" "$bin" --run-side "$id" "$1" "$2" >/dev/null 2>"$out/log"
    mv "$out/$1.$2.out-01" "$out/$1.$2.out"  # thread 1: the main thread
  else
    valgrind --tool=callgrind --callgrind-out-file="$out/$1.$2.out" "$bin" --run-side "$id" "$1" "$2" >/dev/null 2>"$out/log"
  fi
  awk '/^(summary|totals):/ { print $2; exit }' "$out/$1.$2.out"
}

per_op() {
  local a b
  a=$(count "$1" "$n")
  b=$(count "$1" $((2 * n)))
  echo $(( (b - a) / n ))
}

sides=("$side")
[ "$side" = both ] && sides=(loupe other)
declare -A result
for s in "${sides[@]}"; do
  result[$s]=$(per_op "$s")
  printf '%s %s: %s instructions per operation%s\n' "$id" "$s" "${result[$s]}" "$([ "$thread" = main ] && echo ' (main thread)')"
  if [ "${ANNOTATE:-0}" = 1 ]; then
    callgrind_annotate --inclusive=${INCLUSIVE:-no} "$out/$s.$((2 * n)).out" 2>/dev/null | head -n "${TOP:-40}" | cut -c1-220
  fi
done
if [ "$side" = both ]; then
  awk -v a="${result[loupe]}" -v b="${result[other]}" -v id="$id" \
    'BEGIN { if (b > 0) printf "%s loupe/other: %.3f (other/loupe: %.2f)\n", id, a / b, b / a }'
fi
