"""Acting on a live program from the editor (CONTRACT §16), end to end: dap-python drives
`loupe dap` on real `loupe-examples` programs — `setVariable` on a `State` variable (of a root
store and of a scoped one) and `send …` in the Debug Console, allowed (LOUPE_CONTROL=1) and
refused, and a recording, which has no program. Every message is checked against the DAP schema (see dapclient.py).

The program plays the pages scenario 100 times slower than usual, so page 4
(`PageFeature#4`, state id 3) stays unloaded, with no timer, for the whole test: nothing but
the tests changes its state. Run by .ci/checks/60-dap.sh."""

import time
import unittest

from dapclient import ROOT, Adapter, loupe_binary

SLOW_PAGES = ["pages", "--speed", "0.01", "--seconds", "60", "--quiet"]
PAGE = "PageFeature#4"


def launch(allow_control=True, args=SLOW_PAGES):
    a = Adapter()
    a.response(a.initialize_seq)
    env = {"LOUPE_CONTROL": "1"} if allow_control else {}
    a.ok("launch", {"program": loupe_binary("loupe-examples"), "args": args, "env": env}, timeout=60)
    capabilities = a.event("capabilities")["capabilities"]
    a.event("initialized")
    a.ok("configurationDone")
    return a, capabilities


def eventually(read, accept, timeout=30.0):
    """Polls `read()` until `accept` holds of it; returns the last value (a guard for what the
    program does concurrently, never a timing assertion)."""
    deadline = time.monotonic() + timeout
    value = read()
    while not accept(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value


def page_thread(a, name=PAGE):
    """A store's thread (page 4's by default), once the program has made the store (running
    at the present)."""
    def thread():
        return {t["name"]: t["id"] for t in a.ok("threads")["threads"]}.get(name)
    found = eventually(thread, lambda t: t is not None)
    assert found is not None, f"{name} never appeared"
    return found


def stop_at_latest(a, thread):
    """Pauses the view at the thread's latest event: its top frame and its State scope."""
    a.ok("pause", {"threadId": thread})
    a.event("stopped", where=lambda body: body.get("threadId") == thread)
    frame = a.ok("stackTrace", {"threadId": thread})["stackFrames"][0]
    scopes = a.ok("scopes", {"frameId": frame["id"]})["scopes"]
    return frame, {s["name"].split(" ")[0]: s for s in scopes}


def count_now(a, thread):
    """The page's count at its latest event: the view catches up (continue), then stops there."""
    a.ok("continue", {"threadId": thread})
    frame, _ = stop_at_latest(a, thread)
    return a.ok("evaluate", {"expression": ".", "frameId": frame["id"], "context": "watch"})["result"]


def failure(raw):
    assert not raw["success"], raw
    return raw["body"]["error"]["format"]


class ControlTests(unittest.TestCase):
    def test_set_variable_and_send_act_on_a_program_that_allows_control(self):
        a, capabilities = launch()
        self.assertTrue(capabilities["supportsSetVariable"])
        thread = page_thread(a)
        frame, scopes = stop_at_latest(a, thread)
        state = scopes["State"]["variablesReference"]
        rows = {v["name"]: v for v in a.ok("variables", {"variablesReference": state})["variables"]}
        self.assertEqual(rows["count"]["value"], "0")

        raw, parsed = a.via("set_variable", variables_reference=state, name="count", value="77")
        self.assertTrue(raw["success"], raw)
        self.assertEqual((parsed.value, parsed.type), ("77", "number"))  # dap-python's model of the answer
        said = a.event("output", where=lambda body: body["output"].startswith("loupe dap: set"))["output"]
        self.assertRegex(said, r"^loupe dap: set PageFeature#4 count = 77 in the program \(mark #\d+, its changes have origin tool\)")
        self.assertEqual(
            eventually(lambda: count_now(a, thread), lambda r: '"count": 77' in r or "count: 77" in r), "{id: 3, count: 77, isSelected: false}")

        # The program's refusals, in its words; nothing changes.
        frame, scopes = stop_at_latest(a, thread)
        state = scopes["State"]["variablesReference"]
        self.assertIn("PageFeature.State", failure(a.via("set_variable", variables_reference=state, name="count", value='"many"')[0]))
        self.assertIn("is not a value", failure(a.via("set_variable", variables_reference=state, name="count", value="7 or 8")[0]))
        self.assertIn("no variable 'nope'", failure(a.via("set_variable", variables_reference=state, name="nope", value="1")[0]))
        event_scope = scopes["Event"]["variablesReference"]
        self.assertIn("Only a store's state can be set",
                      failure(a.via("set_variable", variables_reference=event_scope, name="kind", value='"x"')[0]))

        # `send` in the Debug Console: to the selected frame's store, or to the store named.
        raw, _ = a.via("evaluate", expression="send timerTicked", frame_id=frame["id"], context="repl")
        self.assertTrue(raw["success"], raw)
        self.assertRegex(raw["body"]["result"], r'^sent "timerTicked" to PageFeature#4 as #\d+$')
        raw, _ = a.via("evaluate", expression='send PageFeature#4 {"selected": true}', context="repl")
        self.assertTrue(raw["success"], raw)
        self.assertEqual(
            eventually(lambda: count_now(a, thread), lambda r: "isSelected: true" in r), "{id: 3, count: 78, isSelected: true}")
        frame, _ = stop_at_latest(a, thread)
        self.assertIn("PageFeature.Action", failure(a.via("evaluate", expression='send {"nope":{}}', frame_id=frame["id"], context="repl")[0]))
        self.assertIn("type it in the Debug Console",
                      failure(a.via("evaluate", expression="send timerTicked", frame_id=frame["id"], context="watch")[0]))
        a.ok("disconnect")
        a.close(closing_input=False)

    def test_set_variable_on_a_scoped_store_sets_it_in_its_root(self):
        # The game's counter is a child store scoped from GameFeature's state (`\\.counter`):
        # setting its `count` sends the root's state with `counter.count` replaced (the
        # program refuses setState on a scoped store), and the answer is what the root holds
        # at that path afterwards.
        a, _ = launch(args=["game", "--idle", "--seconds", "60", "--quiet"])
        child = page_thread(a, "GameFeature#1/counter")
        frame, scopes = stop_at_latest(a, child)
        state = scopes["State"]["variablesReference"]
        rows = {v["name"]: v["value"] for v in a.ok("variables", {"variablesReference": state})["variables"]}
        self.assertEqual(rows["count"], "0")

        raw, _ = a.via("set_variable", variables_reference=state, name="count", value="42")
        self.assertTrue(raw["success"], raw)
        self.assertEqual(raw["body"]["value"], "42")
        said = a.event("output", where=lambda body: body["output"].startswith("loupe dap: set"))["output"]
        self.assertRegex(said, r"^loupe dap: set GameFeature#1/counter count = 42 in the program \(mark #\d+, its changes have origin tool\)")
        self.assertEqual(
            eventually(lambda: count_now(a, child), lambda r: "count: 42" in r), "{id: 1, count: 42, secret: -1}")

        # A value of the wrong type for the child's field is refused in the program's words,
        # which name the root's type and the full path.
        frame, scopes = stop_at_latest(a, child)
        self.assertEqual(
            failure(a.via("set_variable", variables_reference=scopes["State"]["variablesReference"], name="count", value='"many"')[0]),
            "Cannot decode GameFeature.State: at 'counter.count': expected an integer, found \"many\"")
        a.ok("disconnect")
        a.close(closing_input=False)

    def test_a_program_without_LOUPE_CONTROL_refuses_in_its_words(self):
        a, _ = launch(allow_control=False)
        thread = page_thread(a)
        frame, scopes = stop_at_latest(a, thread)
        message = failure(a.via("set_variable", variables_reference=scopes["State"]["variablesReference"], name="count", value="5")[0])
        self.assertEqual(
            message, "Control not allowed: loupe/setState acts on the program, which it allows only when started with LOUPE_CONTROL=1 (or Inspector.shared.configuration.allowsControl = true)")
        message = failure(a.via("evaluate", expression="send timerTicked", frame_id=frame["id"], context="repl")[0])
        self.assertIn("Control not allowed: loupe/send", message)
        self.assertEqual(count_now(a, thread), "{id: 3, count: 0, isSelected: false}")
        a.ok("disconnect")
        a.close(closing_input=False)

    def test_a_recording_has_no_program_to_act_on(self):
        a = Adapter()
        a.response(a.initialize_seq)
        a.ok("launch", {"trace": str(ROOT / "Tests/LoupeCLITests/Fixtures/pages.loupe")})
        a.event("initialized")
        a.ok("setFunctionBreakpoints", {"breakpoints": [{"name": "timerTicked"}]})
        a.ok("configurationDone")
        stop = a.event("stopped")
        self.assertEqual(stop["reason"], "function breakpoint")
        self.assertFalse([m for m in a.all_messages if m.get("event") == "capabilities"], "a recording cannot set variables")
        frame = a.ok("stackTrace", {"threadId": stop["threadId"]})["stackFrames"][0]
        scopes = {s["name"].split(" ")[0]: s for s in a.ok("scopes", {"frameId": frame["id"]})["scopes"]}
        message = failure(a.via("set_variable", variables_reference=scopes["State"]["variablesReference"], name="isVisible", value="false")[0])
        self.assertEqual(
            message,
            'This session is a recording: it has no program to set \'isVisible\' in. Launch the program (with "env": {"LOUPE_CONTROL": "1"}) or attach to one started with LOUPE_CONTROL=1.')
        message = failure(a.via("evaluate", expression="send onAppear", frame_id=frame["id"], context="repl")[0])
        self.assertTrue(message.startswith("This session is a recording: it has no program to send an action to."), message)
        a.ok("disconnect")
        a.close()

if __name__ == "__main__":
    unittest.main()
