#!/usr/bin/env python3
"""`loupe_send` and `loupe_set_state` (CONTRACT §16) end to end, with the official MCP Python
SDK's client driving `loupe mcp`, on real `loupe-examples pages` programs: allowed
(LOUPE_CONTROL=1) and refused, the effect seen in the program's state and, with origin
`tool`, in another client's stream.

The program plays the pages scenario 100 times slower than usual (`--speed 0.01`), so page 4
(`PageFeature#4`, state id 3) stays unloaded, with no timer, for the whole test: nothing but
the tests changes its state.

Run: python3 Tests/MCPClientTests/test_loupe_mcp_control.py [test_name ...]
"""
import asyncio, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import EXAMPLES, FIXTURES, check, client, error, ok, run_all, test, wait_until  # noqa: E402

PAGES_TRACE = os.path.join(FIXTURES, "pages.loupe")
SLOW_PAGES = ["pages", "--speed", "0.01", "--seconds", "60", "--quiet"]
PAGE = "PageFeature#4"


async def eventually(read, accept, timeout=20.0):
    """Polls `read()` (a coroutine function) until `accept` holds of what it returns; returns
    the last value. A guard for what the program does concurrently, never a timing assertion."""
    deadline = time.monotonic() + timeout
    value = await read()
    while not accept(value) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        value = await read()
    return value


async def state_of(c, session, store=PAGE):
    return (await ok(c, "loupe_state", session=session, store=store))[0]["value"]


async def opened_with_page(c, **arguments):
    """A session on a program whose page 4 exists: the handshake can finish before the program
    has made its fourth store."""
    s = (await ok(c, "loupe_open", **arguments))[0]["session"]

    async def page():
        result = await c.call_tool("loupe_state", {"session": s, "store": PAGE})
        return None if result.is_error else result.structured_content["value"]

    check(await eventually(page, lambda v: v is not None) is not None, "page 4 never appeared")
    return s


def annotations(tool):
    return tool.annotations.model_dump(by_alias=True, exclude_none=True)


@test
async def test_control_tools_are_annotated_as_changing_the_program():
    async with client() as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        check(annotations(tools["loupe_send"]) == {
            "title": "Send an action to the program", "readOnlyHint": False, "destructiveHint": True,
            "idempotentHint": False, "openWorldHint": False}, annotations(tools["loupe_send"]))
        check(annotations(tools["loupe_set_state"]) == {
            "title": "Replace a store's state in the program", "readOnlyHint": False, "destructiveHint": True,
            "idempotentHint": True, "openWorldHint": False}, annotations(tools["loupe_set_state"]))
        for name in ["loupe_send", "loupe_set_state"]:
            check(tools[name].input_schema["required"] == ["session", "store", "action" if name == "loupe_send" else "state"], name)
            check("LOUPE_CONTROL=1" in tools[name].description, name)


@test
async def test_a_launched_program_that_allows_control_is_acted_on():
    async with client() as c:
        s = await opened_with_page(c, program=EXAMPLES, args=SLOW_PAGES, env={"LOUPE_CONTROL": "1"})
        check(await state_of(c, s) == {"id": 3, "count": 0, "isSelected": False}, "page 4 starts untouched")

        wanted = {"id": 3, "count": 77, "isSelected": True}
        set_result, text = await ok(c, "loupe_set_state", session=s, store=PAGE, state=wanted)
        mark = set_result["seq"]
        check(set_result == {"store": PAGE, "seq": mark} and mark > 0, set_result)
        check(text.startswith(f'Set the state of {PAGE}: mark #{mark} "setState {PAGE} by loupe mcp"'), text)
        check(await eventually(lambda: state_of(c, s), lambda v: v == wanted) == wanted, "the state was not set")
        changes, _ = await ok(c, "loupe_timeline", session=s, kinds=["state.changed"], stores=[PAGE])
        check(any("state set by tool loupe mcp" in e["line"] for e in changes["events"]), changes)
        why, _ = await ok(c, "loupe_why", session=s, seq=mark)
        check(any(e["kind"] == "state.changed" for e in why["effects"]), why)

        sent, text = await ok(c, "loupe_send", session=s, store=PAGE, action={"timerTicked": {}})
        check(sent["store"] == PAGE and sent["seq"] > mark, sent)
        check(text.startswith(f'Sent {{"timerTicked":{{}}}} to {PAGE} as #{sent["seq"]}'), text)
        after = await eventually(lambda: state_of(c, s), lambda v: v["count"] == 78)
        check(after == {"id": 3, "count": 78, "isSelected": True}, after)
        why, text = await ok(c, "loupe_why", session=s, seq=sent["seq"])
        check("sent by tool loupe mcp" in why["event"]["line"], why["event"])

        # Refusals come back in the program's words, as tool errors; nothing changes.
        text = await error(c, "loupe_send", "refused", session=s, store=PAGE, action={"noSuchCase": {}})
        check("PageFeature.Action" in text, text)
        text = await error(c, "loupe_set_state", "refused", session=s, store=PAGE, state={"id": "three"})
        check("PageFeature.State" in text, text)
        text = await error(c, "loupe_send", "refused", session=s, store="Nope#1", action="x")
        check("No live store 'Nope#1'" in text, text)
        await error(c, "loupe_send", "invalid-arguments", session=s, store=PAGE)
        check((await state_of(c, s))["count"] == 78, "a refused request changed the state")
        await ok(c, "loupe_close", session=s)


@test
async def test_a_case_name_is_sent_as_loupe_shows_it():
    """Loupe's own form ("timerTicked", {"selected": true}); the test above sends Swift's
    JSONEncoder form ({"timerTicked": {}}), which decodes too."""
    async with client() as c:
        s = await opened_with_page(c, program=EXAMPLES, args=SLOW_PAGES, env={"LOUPE_CONTROL": "1"})
        await ok(c, "loupe_send", session=s, store=PAGE, action="timerTicked")
        await ok(c, "loupe_send", session=s, store=PAGE, action={"selected": True})
        after = await eventually(lambda: state_of(c, s), lambda v: v["count"] == 1 and v["isSelected"])
        check(after == {"id": 3, "count": 1, "isSelected": True}, after)
        await ok(c, "loupe_close", session=s)


@test
async def test_a_program_without_LOUPE_CONTROL_refuses_and_is_unchanged():
    async with client() as c:
        s = await opened_with_page(c, program=EXAMPLES, args=SLOW_PAGES)
        text = await error(c, "loupe_send", "control-not-allowed", session=s, store=PAGE, action={"timerTicked": {}})
        check(text.startswith("Error (control-not-allowed): Control not allowed: loupe/send acts on the program, which it allows only when started with LOUPE_CONTROL=1"), text)
        check('"env": {"LOUPE_CONTROL": "1"}' in text, text)
        text = await error(c, "loupe_set_state", "control-not-allowed", session=s, store=PAGE, state={"id": 3, "count": 5, "isSelected": False})
        check("loupe/setState" in text and "LOUPE_CONTROL=1" in text, text)
        check(await state_of(c, s) == {"id": 3, "count": 0, "isSelected": False}, "a refused request changed the state")
        await ok(c, "loupe_close", session=s)


@test
async def test_a_recording_has_no_program_to_act_on():
    async with client() as c:
        opened, _ = await ok(c, "loupe_open", trace=PAGES_TRACE)
        s = opened["session"]
        text = await error(c, "loupe_send", "not-live", session=s, store="PageFeature#1", action="onAppear")
        check(f"Session {s} is a trace: a recording has no program to send an action to." in text, text)
        text = await error(c, "loupe_set_state", "not-live", session=s, store="PageFeature#1", state={})
        check("no program to set the state of" in text, text)


@test
async def test_another_client_sees_what_the_tool_did():
    """Two sessions on one program's socket: what the first sends, the second's stream shows
    with origin tool and the client's name."""
    scratch = tempfile.mkdtemp()
    socket_path = os.path.join(scratch, "pages.sock")
    program = subprocess.Popen(
        [EXAMPLES, *SLOW_PAGES], env={**os.environ, "LOUPE": f"unix:{socket_path}", "LOUPE_CONTROL": "1"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        check(wait_until(lambda: os.path.exists(socket_path)), "the program did not open its socket")
        async with client() as c:
            actor = await opened_with_page(c, socket=socket_path)
            watcher = (await ok(c, "loupe_open", socket=socket_path))[0]["session"]
            sent, _ = await ok(c, "loupe_send", session=actor, store=PAGE, action={"timerTicked": {}})

            async def seen():
                return (await ok(c, "loupe_timeline", session=watcher, kinds=["action.received"], stores=[PAGE]))[0]["events"]

            events = await eventually(seen, lambda es: any(e["seq"] == sent["seq"] for e in es))
            line = next(e["line"] for e in events if e["seq"] == sent["seq"])
            check("PageFeature.Action.timerTicked (sent by tool loupe mcp)" in line, line)
            count = await eventually(lambda: state_of(c, watcher), lambda v: v["count"] == 1)
            check(count["count"] == 1, count)
            await ok(c, "loupe_close", session=actor)
            await ok(c, "loupe_close", session=watcher)
        check(program.poll() is None, "the attached program should keep running")
    finally:
        program.kill()
        program.wait()
        shutil.rmtree(scratch)


if __name__ == "__main__":
    sys.exit(run_all())
