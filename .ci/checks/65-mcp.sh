#!/usr/bin/env bash
# `loupe mcp` driven by a client someone else wrote: the official MCP Python SDK (`mcp` on
# PyPI, pinned) spawns it over real pipes, in both protocol eras (initialize handshake and
# 2026-07-28), lists the tools, calls each one on a live `loupe-examples pages` and on a
# recorded trace (validating every result against the tool's output schema), sends bad
# input, and acts on live programs (loupe_send, loupe_set_state). Costs about 40 s (install ~10 s when not cached).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
start=$SECONDS

if ! python3 -c "import importlib.metadata as m; assert m.version('mcp') == '2.3.0'" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "mcp==2.3.0"
fi
bin="$(swift build --show-bin-path)"
if [ ! -x "$bin/loupe" ] || [ ! -x "$bin/loupe-examples" ]; then
  swift build --product loupe
  swift build --product loupe-examples
fi
LOUPE_BIN_DIR="$bin" python3 Tests/MCPClientTests/test_loupe_mcp.py
# loupe_send and loupe_set_state on live programs, allowed (LOUPE_CONTROL=1) and refused.
LOUPE_BIN_DIR="$bin" python3 Tests/MCPClientTests/test_loupe_mcp_control.py
echo "mcp: $((SECONDS - start))s"
