#!/usr/bin/env python3
"""End-to-end tests of `loupe mcp` with the official MCP Python SDK's stdio client.

Run: python3 Tests/MCPClientTests/test_loupe_mcp.py [test_name ...]
(.ci/checks/65-mcp.sh installs the SDK and runs it.)
"""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import EXAMPLES, FIXTURES, LOUPE, RawServer, alive, check, client, error, ok, run_all, test, wait_until  # noqa: E402

from mcp.shared.exceptions import MCPError  # noqa: E402

PAGES = os.path.join(FIXTURES, "pages.loupe")
TOOLS = [
    "loupe_open", "loupe_stores", "loupe_timeline", "loupe_state", "loupe_why", "loupe_doctor",
    "loupe_stats", "loupe_effects", "loupe_mark", "loupe_send", "loupe_set_state", "loupe_save", "loupe_close",
]


# MARK: Lifecycle


@test
async def test_handshake_era_negotiates_and_pings():
    async with client(mode="legacy") as c:
        check(c.protocol_version == "2025-11-25", f"negotiated {c.protocol_version}")
        check(c.server_info.name == "loupe", f"server info {c.server_info}")
        check(c.server_capabilities.tools is not None, "no tools capability")
        await c.send_ping()


@test
async def test_modern_era_discovers_2026_07_28():
    async with client(mode="auto") as c:
        check(c.protocol_version == "2026-07-28", f"auto mode settled on {c.protocol_version}")
        tools = await c.list_tools()
        check([t.name for t in tools.tools] == TOOLS, f"tools: {[t.name for t in tools.tools]}")


@test
def test_initialize_offers_its_newest_for_an_unknown_version():
    server = RawServer()
    try:
        answer = server.initialize(version="2099-01-01")
        check(answer["result"]["protocolVersion"] == "2025-11-25", answer)
        answer = server.initialize(version="2025-03-26")
        check(answer["error"]["code"] == -32600 and "already initialized" in answer["error"]["message"], answer)
    finally:
        server.close()


@test
async def test_every_tool_has_input_and_output_schemas():
    async with client() as c:
        for tool in (await c.list_tools()).tools:
            check(tool.input_schema["type"] == "object", f"{tool.name} input schema")
            check(tool.output_schema and tool.output_schema["type"] == "object", f"{tool.name} has no output schema")
            check(len(tool.description) > 80, f"{tool.name}: a description a model can use")
            if tool.name != "loupe_open":
                check("session" in tool.input_schema.get("required", []), f"{tool.name} requires session")


# MARK: A recorded trace


@test
async def test_trace_session_answers_every_tool():
    scratch = tempfile.mkdtemp()
    try:
        async with client() as c:
            opened, text = await ok(c, "loupe_open", trace=PAGES)
            s = opened["session"]
            check(opened["kind"] == "trace" and opened["events"] == 65 and opened["program"] == "PagesDemo", opened)
            check(text.startswith(f"Opened session {s}: trace"), text)

            stores, text = await ok(c, "loupe_stores", session=s)
            ids = [row["id"] for row in stores["stores"]]
            check("AppFeature#1/pages[id: 2]" in ids, ids)
            early, _ = await ok(c, "loupe_stores", session=s, at=5)
            check([row["id"] for row in early["stores"]] == ["AppFeature#1", "AppFeature#1/pages[id: 1]"], early)

            timeline, text = await ok(c, "loupe_timeline", session=s, kinds=["effect.*"], limit=2)
            check([e["seq"] for e in timeline["events"]] == [10, 26], timeline)
            check(timeline["matched"] > 2 and timeline["next"] is not None, timeline)
            check(f'"since": {timeline["next"]}' in text and "more matching event" in text, text)
            check("another store" in timeline["events"][1]["line"], timeline["events"][1])
            rest, _ = await ok(c, "loupe_timeline", session=s, kinds=["effect.*"], since=timeline["next"], limit=500)
            check(rest["next"] is None and rest["shown"] == timeline["matched"] - 2, rest)

            why, text = await ok(c, "loupe_why", session=s, seq=26)
            check(why["event"]["seq"] == 26, why)
            check([c_["seq"] for c_ in why["causes"]][:1] == [24], why["causes"])
            check("cancelled" in text and "#24" in text, text)
            started, text = await ok(c, "loupe_why", session=s, seq=8)
            kinds = {e["kind"] for e in started["effects"]}
            check({"state.changed", "effect.started"} <= kinds, started["effects"])

            state, text = await ok(c, "loupe_state", session=s, store="AppFeature#1/pages[id: 1]", path="count", at=20)
            check(state["store"] == "AppFeature#1/pages[id: 1]" and state["at"] == 20, state)

            doctor, text = await ok(c, "loupe_doctor", session=s)
            codes = [f["code"] for f in doctor["findings"]]
            check("effect-cancelled-by-another-store" in codes, codes)
            check("#26" in text, text)

            stats, text = await ok(c, "loupe_stats", session=s)
            check(stats["trace"]["events"] == 65, stats["trace"])
            check("PageFeature.Action.onAppear" in text, text)

            effects, text = await ok(c, "loupe_effects", session=s)
            by_id = {e["effect"]: e for e in effects["effects"]}
            check(by_id[1]["status"] == "cancelled" and by_id[1]["cancelledBy"]["store"] == "AppFeature#1/pages[id: 2]", by_id[1])
            check(by_id[2]["status"] == "running", by_id[2])

            await error(c, "loupe_mark", "not-live", session=s, label="x")

            saved_path = os.path.join(scratch, "copy.loupe")
            saved, _ = await ok(c, "loupe_save", session=s, path=saved_path)
            check(saved["events"] == 65 and saved["lastSeq"] == 65, saved)
            copy, _ = await ok(c, "loupe_open", trace=saved_path)
            check(copy["events"] == 65 and copy["session"] != s, copy)

            closed, text = await ok(c, "loupe_close", session=s)
            check(closed["session"] == s, closed)
            text = await error(c, "loupe_doctor", "no-such-session", session=s)
            check("was closed" in text and copy["session"] in text, text)
    finally:
        shutil.rmtree(scratch)


# MARK: A live program


@test
async def test_live_program_session():
    scratch = tempfile.mkdtemp()
    try:
        async with client() as c:
            opened, _ = await ok(c, "loupe_open", program=EXAMPLES, args=["pages", "--shared-cancellation", "--speed", "4"], env={"LOUPE_REDACT": "count"})
            s = opened["session"]
            check(opened["kind"] == "launch" and opened["pid"] > 0, opened)
            mark, _ = await ok(c, "loupe_mark", session=s, label="agent was here")
            check(mark["seq"] > 0, mark)
            # The scenario ends by itself; its whole story is then in the session.
            check(wait_until(lambda: not alive(opened["pid"])), "loupe-examples pages did not end")
            doctor, _ = await ok(c, "loupe_doctor", session=s)
            check("effect-cancelled-by-another-store" in [f["code"] for f in doctor["findings"]], doctor)
            marks, _ = await ok(c, "loupe_timeline", session=s, kinds=["mark"])
            check(any("agent was here" in e["line"] for e in marks["events"]), marks)
            stores, _ = await ok(c, "loupe_stores", session=s, at=20)
            check("PageFeature#1" in [row["id"] for row in stores["stores"]], stores)
            # 'env' reached the program: it redacted what LOUPE_REDACT named.
            counts, _ = await ok(c, "loupe_timeline", session=s, paths=["count"], limit=1)
            check("<redacted>" in counts["events"][0]["line"], counts)
            state, _ = await ok(c, "loupe_state", session=s, store="PageFeature#1", path="count", at=counts["events"][0]["seq"])
            check(state["value"] == "<redacted>", state)
            for name in ["loupe_stats", "loupe_effects"]:
                await ok(c, name, session=s)
            saved, _ = await ok(c, "loupe_save", session=s, path=os.path.join(scratch, "live.loupe"))
            check(saved["events"] > 20, saved)
            await ok(c, "loupe_close", session=s)
    finally:
        shutil.rmtree(scratch)


@test
async def test_a_live_session_answers_as_its_recording_does():
    """A live session's model indexes the session's own recording and reads events back from
    it (issue 33 item 17): its answers — events, state at a seq, doctor — are those of the same
    events opened as a trace, which is how a session answered when it kept them in memory."""
    scratch = tempfile.mkdtemp()
    try:
        async with client() as c:
            opened, _ = await ok(c, "loupe_open", program=EXAMPLES, args=["pages", "--shared-cancellation", "--speed", "4"])
            live = opened["session"]
            check(wait_until(lambda: not alive(opened["pid"])), "loupe-examples pages did not end")
            saved, _ = await ok(c, "loupe_save", session=live, path=os.path.join(scratch, "live.loupe"))
            copy, _ = await ok(c, "loupe_open", trace=os.path.join(scratch, "live.loupe"))
            trace = copy["session"]
            check(copy["events"] == saved["events"] and saved["events"] > 20, (copy, saved))

            async def answers(s):
                timeline, text = await ok(c, "loupe_timeline", session=s, limit=500)
                seqs = [e["seq"] for e in timeline["events"]]
                states = []
                for at in seqs[:: max(1, len(seqs) // 8)] + [seqs[-1]]:
                    stores, _ = await ok(c, "loupe_stores", session=s, at=at)
                    for row in stores["stores"]:
                        state, _ = await ok(c, "loupe_state", session=s, store=row["id"], at=at)
                        states.append((at, row["id"], state["value"]))
                why, _ = await ok(c, "loupe_why", session=s, seq=seqs[len(seqs) // 2])
                doctor, doctor_text = await ok(c, "loupe_doctor", session=s)
                effects, _ = await ok(c, "loupe_effects", session=s)
                return {
                    "events": [(e["seq"], e["line"]) for e in timeline["events"]],
                    "states": states,
                    "why": why,
                    "doctor": doctor["findings"],
                    "effects": effects["effects"],
                }

            from_live, from_trace = await answers(live), await answers(trace)
            check(len(from_live["events"]) == saved["events"], (len(from_live["events"]), saved))
            check(len(from_live["states"]) > 8, from_live["states"])
            check("effect-cancelled-by-another-store" in [f["code"] for f in from_live["doctor"]], from_live["doctor"])
            for key in from_live:
                check(from_live[key] == from_trace[key], f"{key}: live {from_live[key]!r}\n  trace {from_trace[key]!r}")
            await ok(c, "loupe_close", session=live)
    finally:
        shutil.rmtree(scratch)


@test
async def test_closing_a_session_ends_its_program():
    async with client() as c:
        opened, _ = await ok(c, "loupe_open", program=EXAMPLES, args=["pages", "--seconds", "120"])
        check(alive(opened["pid"]), "the program should be running")
        closed, _ = await ok(c, "loupe_close", session=opened["session"])
        check(not alive(opened["pid"]), f"still running after loupe_close: {closed}")


@test
async def test_socket_session_leaves_the_program_running():
    scratch = tempfile.mkdtemp()
    socket_path = os.path.join(scratch, "pages.sock")
    program = subprocess.Popen(
        [EXAMPLES, "pages", "--seconds", "120", "--quiet"], env={**os.environ, "LOUPE": f"unix:{socket_path}"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        check(wait_until(lambda: os.path.exists(socket_path)), "the program did not open its socket")
        async with client() as c:
            opened, text = await ok(c, "loupe_open", socket=socket_path)
            check(opened["kind"] == "socket" and opened["pid"] == program.pid, opened)
            timeline, _ = await ok(c, "loupe_timeline", session=opened["session"], kinds=["store.created"])
            check(timeline["matched"] >= 1, timeline)
            mark, _ = await ok(c, "loupe_mark", session=opened["session"], label="from the agent")
            check(mark["seq"] > 0, mark)
            closed, text = await ok(c, "loupe_close", session=opened["session"])
            check("keeps running" in text, text)
        check(program.poll() is None, "the attached program should keep running")
    finally:
        program.kill()
        program.wait()
        shutil.rmtree(scratch)


@test
async def test_tcp_session_with_a_token():
    program = subprocess.Popen(
        [EXAMPLES, "pages", "--seconds", "120", "--quiet"],
        env={**os.environ, "LOUPE": "tcp:127.0.0.1:0", "LOUPE_TOKEN": "mcp-tcp-token"},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        port = None
        while port is None:
            line = program.stderr.readline().decode()
            check(line != "", "the program ended before listening")
            if line.startswith("loupe: listening on 127.0.0.1:"):
                port = int(line.strip().rsplit(":", 1)[1])
        async with client() as c:
            text = await error(c, "loupe_open", "launch-failed", tcp=f"127.0.0.1:{port}", token="not-it")
            check("-32003" in text or "nauthorized" in text, text)
            text = await error(c, "loupe_open", "invalid-arguments", tcp="10.0.0.1:80", token="x")
            check("loopback" in text, text)
            opened, text = await ok(c, "loupe_open", tcp=f"127.0.0.1:{port}", token="mcp-tcp-token")
            check(opened["kind"] == "tcp" and opened["pid"] == program.pid, opened)
            check("mcp-tcp-token" not in text and "mcp-tcp-token" not in str(opened), "the token was shown")
            timeline, _ = await ok(c, "loupe_timeline", session=opened["session"], kinds=["store.created"])
            check(timeline["matched"] >= 1, timeline)
            closed, text = await ok(c, "loupe_close", session=opened["session"])
            check("keeps running" in text, text)
        check(program.poll() is None, "the attached program should keep running")
    finally:
        program.kill()
        program.wait()


@test
async def test_a_live_sessions_scratch_directory_is_private_and_unpredictable():
    # A fixed name (loupe-mcp-PID-s1) in a shared temporary directory could be made first by
    # someone else and used as it is: the recording (the app's state) would land in their
    # directory. The scratch directory is mkdtemp's: a random suffix, mode 0700.
    scratch = tempfile.mkdtemp()
    try:
        async with client(env={**os.environ, "TMPDIR": scratch}) as c:
            opened, _ = await ok(c, "loupe_open", program=EXAMPLES, args=["pages", "--seconds", "120"])
            made = [name for name in os.listdir(scratch) if name.startswith("loupe-mcp-")]
            check(len(made) == 1 and re.fullmatch(r"loupe-mcp-\d+-s\d+-[A-Za-z0-9]{6}", made[0]), made)
            check(os.stat(os.path.join(scratch, made[0])).st_mode & 0o777 == 0o700, oct(os.stat(os.path.join(scratch, made[0])).st_mode))
            await ok(c, "loupe_close", session=opened["session"])
        check(not [name for name in os.listdir(scratch) if name.startswith("loupe-mcp-")], "the scratch directory was left behind")
    finally:
        shutil.rmtree(scratch)


@test
def test_the_client_leaving_ends_the_programs():
    server = RawServer()
    server.initialize()
    answer = server.request(1, "tools/call", {"name": "loupe_open", "arguments": {"program": EXAMPLES, "args": ["pages", "--seconds", "120"]}})
    pid = answer["result"]["structuredContent"]["pid"]
    check(alive(pid), "the program should be running")
    status, _ = server.close()
    check(status == 0, f"loupe mcp exited with {status}")
    check(not alive(pid), "the launched program outlived the client")


@test
def test_terminating_the_server_ends_the_programs():
    server = RawServer()
    server.initialize()
    answer = server.request(1, "tools/call", {"name": "loupe_open", "arguments": {"program": EXAMPLES, "args": ["pages", "--seconds", "120"]}})
    pid = answer["result"]["structuredContent"]["pid"]
    check(alive(pid), "the program should be running")
    server.process.terminate()
    status = server.process.wait(timeout=30)
    check(status == 0, f"loupe mcp exited with {status} on SIGTERM")
    check(not alive(pid), "the launched program outlived loupe mcp")
    server.close()


# MARK: Bad input


@test
def test_protocol_errors_and_the_server_goes_on():
    server = RawServer()
    try:
        answer = server.request(1, "tools/list")
        check(answer["error"]["code"] == -32600 and "initialize" in answer["error"]["message"], answer)
        server.send_line("this is not json")
        answer = server.read()
        check(answer["error"]["code"] == -32700 and answer["id"] is None, answer)
        server.send_line('{"jsonrpc": "2.0", "id": 7, "method": ')
        check(server.read()["error"]["code"] == -32700, "a cut-off line")
        server.send_line("[]")
        check(server.read()["error"]["code"] == -32600, "an empty batch")
        check(server.request(2, "ping")["result"] == {}, "ping before initialize")
        server.initialize()
        answer = server.request(3, "no/such/method")
        check(answer["error"]["code"] == -32601, answer)
        answer = server.request(4, "tools/call", {"name": "loupe_nope", "arguments": {}})
        check(answer["error"]["code"] == -32602 and "loupe_open" in answer["error"]["message"], answer)
        answer = server.request(5, "tools/call", {"arguments": {}})
        check(answer["error"]["code"] == -32602, answer)
        answer = server.request(6, "tools/call", {"name": "loupe_doctor", "arguments": "s1"})
        check(answer["error"]["code"] == -32602, answer)
        meta = {"io.modelcontextprotocol/protocolVersion": "2030-01-01", "io.modelcontextprotocol/clientCapabilities": {}}
        answer = server.request(8, "tools/list", {"_meta": meta})
        check(answer["error"]["code"] == -32022 and "2026-07-28" in answer["error"]["data"]["supported"], answer)
        answer = server.request(9, "tools/list")
        check(len(answer["result"]["tools"]) == 13, "still serving")
    finally:
        server.close()


@test
async def test_tool_errors_are_results_and_the_server_goes_on():
    scratch = tempfile.mkdtemp()
    try:
        not_a_trace = os.path.join(scratch, "notes.txt")
        with open(not_a_trace, "w") as f:
            f.write("hello\n")
        async with client() as c:
            text = await error(c, "loupe_timeline", "invalid-arguments", session="s1", limit="ten")
            check("'limit' must be an integer" in text, text)
            text = await error(c, "loupe_timeline", "invalid-arguments", sesion="s1")
            check("'session' is required" in text, text)
            text = await error(c, "loupe_open", "invalid-arguments", trace=PAGES, program="x")
            text = await error(c, "loupe_open", "launch-failed", program="/no/such/program")
            check("/no/such/program" in text, text)
            text = await error(c, "loupe_open", "not-a-trace", trace=not_a_trace)
            check("not a" in text.lower() or "trace" in text, text)
            await error(c, "loupe_open", "io-error", trace=os.path.join(scratch, "missing.loupe"))
            text = await error(c, "loupe_open", "launch-failed", program="/bin/true")
            text = await error(c, "loupe_doctor", "no-such-session", session="s9")
            opened, _ = await ok(c, "loupe_open", trace=PAGES)
            await error(c, "loupe_why", "no-such-event", session=opened["session"], seq=10_000)
            await error(c, "loupe_state", "no-such-store", session=opened["session"], store="Nope#1")
            await ok(c, "loupe_doctor", session=opened["session"])
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    sys.exit(run_all())
