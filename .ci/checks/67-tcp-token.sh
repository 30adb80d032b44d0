#!/usr/bin/env bash
# LOUPE=tcp:HOST:PORT and its token (CONTRACT §14) end to end, with a JSON-RPC client someone
# else wrote: pylspclient (PyPI) speaks LSP base-protocol framing to the built
# `loupe-examples probe` over loopback TCP — no token, a wrong one, a first message other than
# `initialize`, 200 wrong tokens then the right one (the host's events keep coming), a
# non-loopback host refused, the token absent from every answer, event and trace, and
# `loupe record --tcp`. About 10-20 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

if ! python3 -c "import pylspclient" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "pylspclient==0.1.2"
fi

bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/loupe" ] || [ ! -x "$bin/loupe-examples" ]; then
  swift build --product loupe
  swift build --product loupe-examples
fi

cd Tests/tcp
LOUPE_BIN_DIR="$bin" python3 -W ignore::ResourceWarning -m unittest -v test_tcp 2>&1 | tail -n 30
exit "${PIPESTATUS[0]}"
