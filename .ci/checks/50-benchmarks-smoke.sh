#!/usr/bin/env bash
# Benchmarks smoke: builds the Benchmarks package (its own package, which compares Loupe with
# swift-custom-dump, JSONEncoder and jq) in debug and runs every benchmark with small sizes
# and few repetitions, so that none of them rots. Measures nothing: the numbers of a smoke run
# mean nothing (BENCHMARKS.md has real runs). Fails when a benchmark fails to run or its two
# sides disagree (e.g. JSONEncoder's JSON differs from Loupe's), never on a ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
start=$SECONDS

# jq is what `loupe show` is compared with; without it that row is skipped, not failed.
if ! command -v jq >/dev/null; then
  apt-get install -y -qq jq >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq jq >/dev/null 2>&1; } \
    || echo "note: jq could not be installed; the loupe show vs jq row is skipped"
fi

log=$(mktemp)
if ! swift build --package-path Benchmarks --product loupe-bench >"$log" 2>&1; then
  cat "$log" >&2
  echo "CI: the Benchmarks package does not build" >&2
  exit 1
fi
if grep -E "/Benchmarks/Sources/.*warning:" "$log" >&2; then
  echo "CI: the Benchmarks package builds with warnings" >&2
  exit 1
fi
bin="$(swift build --package-path Benchmarks --show-bin-path)"
echo "Benchmarks package built in $((SECONDS - start))s"
"$bin/loupe-bench" --smoke
# The host-jitter script runs against the main package's debug loupe-examples (built by
# .ci/run): smoke sizes, every pattern once, numbers meaningless.
python3 Benchmarks/scripts/host_jitter.py --smoke --examples .build/debug/loupe-examples >/dev/null
echo "benchmarks smoke: $((SECONDS - start))s in all"
