#!/usr/bin/env bash
# Builds the libFuzzer harnesses in fuzz/Harnesses/ into fuzz/out/bin/, with AddressSanitizer.
#
# LoupeCore, LoupeRPC and LoupeSession are compiled from their sources as static libraries with
# -sanitize=fuzzer,address (coverage + ASan, no main), then each harness is linked against
# them; libFuzzer supplies main(). Everything is rebuilt only when a source is newer than
# its output. Usage: fuzz/build-fuzzers.sh [HARNESS...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

out=fuzz/out
mkdir -p "$out/lib" "$out/bin"
# One package name for every module, as SwiftPM gives them, so `package` declarations work.
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -use-ld=lld -package-name loupe)

# newer OUTPUT FILE... : true when OUTPUT is missing or older than any FILE.
stale() {
  local output=$1; shift
  [ -e "$output" ] || return 0
  [ -n "$(find "$@" -newer "$output" -print -quit)" ]
}

# library NAME: builds fuzz/out/lib/libNAME.a and its module from Sources/NAME.
library() {
  local name=$1
  local sources
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  if stale "$out/lib/lib$name.a" "${sources[@]}" "$0" $( [ "$name" != LoupeCore ] && echo "$out/lib/libLoupeCore.a" ); then
    echo "fuzz: compiling $name (${#sources[@]} files)"
    swiftc "${flags[@]}" -wmo -num-threads 2 -enable-testing -I "$out/lib" -module-name "$name" \
      -emit-module -emit-module-path "$out/lib/$name.swiftmodule" \
      -emit-library -static -o "$out/lib/lib$name.a" "${sources[@]}"
  fi
}

# harness NAME FILE [rpc|session]: links fuzz/out/bin/fuzz-NAME (with LoupeRPC and the
# server support for `rpc`, with the trace reader's LoupeSession for `session`).
harness() {
  local name=$1 file=$2 with=${3:-}
  local sources=("fuzz/Harnesses/$file" fuzz/Support/FuzzInput.swift) libs=(-lLoupeCore)
  if [ "$with" = rpc ]; then
    sources+=(fuzz/Support/FuzzServer.swift)
    libs=(-lLoupeRPC -lLoupeCore)
  elif [ "$with" = session ]; then
    libs=(-lLoupeSession -lLoupeCore)
  fi
  if stale "$out/bin/fuzz-$name" "${sources[@]}" "$out/lib" "$0"; then
    echo "fuzz: linking fuzz-$name"
    swiftc "${flags[@]}" -I "$out/lib" -L "$out/lib" "${libs[@]}" "${sources[@]}" -o "$out/bin/fuzz-$name" 2>&1 |
      { grep -v "Cannot export local symbol" || true; }
  fi
}

library LoupeCore
library LoupeRPC
library LoupeSession

wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(frames messages session json trace)
for name in "${wanted[@]}"; do
  case "$name" in
    frames) harness frames FrameDecoderFuzzer.swift rpc ;;
    messages) harness messages MessageFuzzer.swift rpc ;;
    session) harness session SessionFuzzer.swift rpc ;;
    json) harness json JSONParserFuzzer.swift ;;
    trace) harness trace TraceReaderFuzzer.swift session ;;
    *) echo "fuzz: unknown harness '$name' (frames, messages, session, json, trace)" >&2; exit 2 ;;
  esac
done
