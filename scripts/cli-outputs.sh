#!/usr/bin/env bash
# Runs every reading command of `loupe` on every fixture trace and writes each one's
# stdout, stderr and exit status to OUTDIR, one file per run. Run it before and after a
# change that should not change behaviour, then `diff -r BEFORE AFTER`.
#   scripts/cli-outputs.sh LOUPE_BINARY OUTDIR
set -uo pipefail
loupe=$1; out=$2
cd "$(dirname "$0")/.."
mkdir -p "$out"
run() {
  local name=$1; shift
  "$loupe" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null
  echo $? >"$out/$name.status"
}
for f in Tests/LoupeCLITests/Fixtures/*.loupe Tests/LoupeTestingTests/Fixtures/*.loupe Tests/LoupeCLITests/Fixtures/foreign.json; do
  b=$(basename "$f")
  run "$b.show" show "$f"
  run "$b.show.json" show "$f" --format json
  run "$b.show.changes" show "$f" --format changes
  run "$b.show.effects" show "$f" --kind 'effect.*' --store '*'
  run "$b.show.paths" show "$f" --path '*count*'
  run "$b.stats" stats "$f"
  run "$b.stats.json" stats "$f" --json
  run "$b.doctor" doctor "$f"
  run "$b.doctor.json" doctor "$f" --json
  run "$b.state" state "$f" --store '*'
  run "$b.state.at" state "$f" --store '*' --at 5
  run "$b.state.json" state "$f" --store '*#1' --format json
  run "$b.export" export "$f" --chrome-trace /dev/stdout
  run "$b.otlp" export "$f" --otlp -
  printf 'Content-Length: 58\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}' >"$out/.in"
  printf 'Content-Length: 71\r\n\r\n{"jsonrpc":"2.0","id":2,"method":"loupe/subscribe","params":{"history":true}}' >>"$out/.in"
  "$loupe" replay "$f" <"$out/.in" >"$out/$b.replay.out" 2>"$out/$b.replay.err"; echo $? >"$out/$b.replay.status"
done
for c in attach record show state stats doctor export replay dap mcp demo; do run "help-$c" $c --help; done
run "bad-flag" show --nope
rm -f "$out/.in"
