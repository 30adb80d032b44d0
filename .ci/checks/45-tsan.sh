#!/usr/bin/env bash
# The concurrency-heavy tests under ThreadSanitizer, in their own build (.build-tsan): the
# store's effects sending from many tasks, the inspector's hub and client queues, connections
# and their reader/writer threads, the server session, and end-to-end runs whose programs
# (loupe-examples, loupe) are the TSan builds too — a race in a child makes it exit 66, which
# the tests see. Swift's Mutex hands its lock over through the kernel in an uninstrumented
# library, so .ci/tsan/MutexAnnotations.c (preloaded) tells TSan about it; suppressions, if
# any, are in .ci/tsan-suppressions.txt, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

scratch=.build-tsan
subset='ConcurrencyTests|EffectTests|CancellationTests|SubscriptionTests|ClientSubscriptionTests|EventHubTests|ClientLimitTests|GonePeerTests|DirectoryTests|FinishAtExitTests|SocketEndToEndTests|StdioEndToEndTests|ExitEndToEndTests|ConnectionTests|ClientTests|LifecycleTests|JSONRPCSpecTests|UnixSocketSafetyTests|SessionFuzzRegressionTests|ActivationTests|ReliabilitySuites/FaultTests|RecorderFaultTests|RecorderLingerTests|DecodingAheadTests|RebuildAsideTests'
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/.ci/tsan-suppressions.txt"

swift build --build-tests --sanitize=thread --scratch-path "$scratch" 2>&1 | grep -E "error:|warning:|Build complete" || true
mkdir -p "$scratch"
clang -shared -fPIC -O2 -Wall -Werror -o "$scratch/libloupe-tsan-mutex.so" .ci/tsan/MutexAnnotations.c
log=$(mktemp)
status=0
LD_PRELOAD="$PWD/$scratch/libloupe-tsan-mutex.so" \
  swift test --skip-build --sanitize=thread --scratch-path "$scratch" --filter "$subset" >"$log" 2>&1 || status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
grep -E "Test run with|Executed [0-9]+ tests|✘" "$log" | tail -5 || true
echo "tsan: $reports ThreadSanitizer report(s)"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
  echo "tsan: FAILED (status $status); reports and failures:" >&2
  grep -E -A30 "WARNING: ThreadSanitizer" "$log" | head -200 >&2 || true
  grep -E "✘" "$log" | head -40 >&2 || true
  rm -f "$log"
  exit 1
fi
rm -f "$log"
