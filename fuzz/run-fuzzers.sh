#!/usr/bin/env bash
# Runs each libFuzzer harness for DURATION seconds (building them first), starting from the
# seed corpus in fuzz/Corpus/NAME and what earlier runs found in fuzz/out/corpus/NAME.
#
#   fuzz/run-fuzzers.sh DURATION [HARNESS...]     e.g. fuzz/run-fuzzers.sh 30
#
# Harnesses: frames (FrameDecoder), messages (JSON-RPC decoding + server session), session
# (a raw byte stream through framing into a fresh server session), json (JSONParser),
# trace (TraceReader). A crash, an AddressSanitizer report or a broken invariant stops that
# harness, keeps the input in fuzz/out/artifacts/ and makes the script fail; reproduce with
# `fuzz/out/bin/fuzz-NAME fuzz/out/artifacts/NAME-crash-…`. Prints the iterations per harness.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:?usage: fuzz/run-fuzzers.sh DURATION [HARNESS...]}
shift
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(frames messages session json trace)

fuzz/build-fuzzers.sh "${harnesses[@]}"

out=fuzz/out
mkdir -p "$out/artifacts" "$out/logs"
summary=()
failed=0
for name in "${harnesses[@]}"; do
  mkdir -p "$out/corpus/$name"
  log="$out/logs/$name.log"
  echo "fuzz: $name for ${duration}s"
  status=0
  ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$out/bin/fuzz-$name" \
    -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$name-" "$out/corpus/$name" "fuzz/Corpus/$name" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$out/corpus/$name" -type f | wc -l)
  if [ "$status" -ne 0 ]; then
    failed=1
    summary+=("$(printf '%-9s FAILED (exit %d) after %s runs; see %s' "$name" "$status" "${runs:-?}" "$log")")
    grep -E "ERROR|fuzz invariant|Fatal error|SUMMARY|Test unit written" "$log" | head -8 >&2 || true
  else
    summary+=("$(printf '%-9s %10s runs in %ss, corpus %d inputs' "$name" "${runs:-?}" "$duration" "$corpus")")
  fi
done

echo
echo "fuzz summary:"
printf '  %s\n' "${summary[@]}"
exit "$failed"
