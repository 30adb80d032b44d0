#!/usr/bin/env bash
# The protocol reference must match the server: validate a fresh session against a real
# program, the transcripts the Swift end-to-end tests wrote, and every example in protocol/
# and the README against protocol/schemas (JSON Schema 2020-12, via Python's jsonschema).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

if ! python3 -c "import jsonschema, referencing" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "jsonschema>=4.18"
fi

bin="$(swift build --show-bin-path)/loupe-examples"
if [ ! -x "$bin" ]; then
  swift build --product loupe-examples
fi

shopt -s nullglob
captures=(.build/protocol-capture/*.jsonl)
if [ ${#captures[@]} -eq 0 ]; then
  echo "note: no transcripts from the Swift tests in .build/protocol-capture (run swift test first)"
fi
python3 protocol/tools/validate.py --self-test --docs --capture "$bin" --server-log "${captures[@]}"
