#!/usr/bin/env bash
# `loupe dap` end to end with a DAP client someone else wrote: dap-python (PyPI) drives the
# built `loupe dap` over real pipes — a recorded seed 000 trace, live `loupe-examples` runs
# (launched, and attached over a socket), every stepping request, each breakpoint kind, and
# bad input — and every message the adapter sends is validated against the Debug Adapter
# Protocol's own JSON schema (protocol/dap/debugAdapterProtocol.json). Costs about 20-40 s
# (one 3-second recording, three short live runs), plus the pip install the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

# dap-python 0.5.0 is what the harness's notes on its parsing quirks are about (Tests/dap/dapclient.py).
if ! python3 -c "import dap.client, jsonschema, pydantic" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "dap-python==0.5.0" "jsonschema>=4.18"
fi

bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/loupe" ] || [ ! -x "$bin/loupe-examples" ]; then
  swift build --product loupe
  swift build --product loupe-examples
fi

cd Tests/dap
# test_dap_control: setVariable and 'send' in the Debug Console on live programs (CONTRACT §16).
LOUPE_BIN_DIR="$bin" python3 -W ignore::ResourceWarning -m unittest -v test_dap test_dap_control 2>&1 | tail -n 40
exit "${PIPESTATUS[0]}"
