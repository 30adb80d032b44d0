#!/usr/bin/env python3
"""The README's agent-style session: what a coding agent does with `loupe mcp` on the seed 000
recording, through the official MCP Python SDK. Prints each call and the text the model reads.

    loupe record seed000.loupe -- loupe-examples pages --shared-cancellation
    python3 Tests/MCPClientTests/agent_session.py seed000.loupe WHY_SEQ STORE STATE_SEQ
"""
import asyncio, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import LOUPE  # noqa: E402

from mcp import StdioServerParameters  # noqa: E402
from mcp.client import Client  # noqa: E402


async def main(trace, why, store, at):
    async with Client(StdioServerParameters(command=LOUPE, args=["mcp"]), cache=None) as client:
        print(f"(connected: {client.server_info.name}, protocol {client.protocol_version})\n")
        calls = [
            ("loupe_open", {"trace": trace}),
            ("loupe_doctor", {"session": "s1"}),
            ("loupe_why", {"session": "s1", "seq": why}),
            ("loupe_state", {"session": "s1", "store": store, "at": at}),
        ]
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            print(f"→ {name} {json.dumps(arguments)}")
            print(result.content[0].text)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
