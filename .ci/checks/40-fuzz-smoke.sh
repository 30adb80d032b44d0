#!/usr/bin/env bash
# A short fuzz of every libFuzzer harness (fuzz/: frame decoder, JSON-RPC messages, a whole
# server session, JSON parser, trace reader), built with AddressSanitizer, starting from the
# committed seed corpus. Any crash, sanitizer report or broken invariant fails CI and leaves
# the input in fuzz/out/artifacts/. LOUPE_FUZZ_SECONDS sets the time per harness (default 20).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec fuzz/run-fuzzers.sh "${LOUPE_FUZZ_SECONDS:-20}"
