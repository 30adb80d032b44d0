#!/usr/bin/env python3
"""Writes the hand-made fixture traces next to this script.

pages.loupe tells the seed-000 story: two pages of a pager, each with a timer effect that
uses the same cancel id "timer"; when the user swipes to page 2, page 2's onAppear cancels
"timer" and stops page 1's timer too. It also has a derived value recomputed for nothing, a
detail sheet presented three times (identity churn), a send to an ended store, dropped
events, and page 2's timer still running at the end. Its events carry source locations
(CONTRACT §9), the derived values' excepted, and the shapes of their values (which parts are
enum cases and tuples: protocol/values.md); counter.loupe and doctor.loupe have neither, as
traces written before them, so readers show their values as JSON-like text.

state.loupe has state snapshots (CONTRACT §10): a pager's root store snapshotted when it is
created and again later by policy, its pages' and a detail sheet's changes in between (a
scoped store's changes land at its path in the root's state), and a change a size cap cut
short at the end, which makes the states after it approximate.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))

def write(name, header, events, tail=b""):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write((json.dumps(header, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
        for e in events:
            f.write((json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
        f.write(tail)

class Session:
    def __init__(self):
        self.seq = 0
        self.events = []
    def add(self, time, kind, **fields):
        self.seq += 1
        event = {"seq": self.seq, "time": time, "kind": kind}
        event.update(fields)
        self.events.append(event)
        return self.seq

HEADER = {"format": "loupe-trace", "version": 1, "program": "PagesDemo", "pid": 4242, "startedAt": "2026-11-22T10:04:05.123Z"}

def src(file, line, path=True):
    """A `source` member: the #fileID, the line, and the #filePath unless left out."""
    location = {"file": "PagesDemo/" + file, "line": line}
    if path:
        location["path"] = "/src/PagesDemo/Sources/PagesDemo/" + file
    return location

def pages():
    s = Session()
    app = "AppFeature#1"
    p1 = "AppFeature#1/pages[id: 1]"
    p2 = "AppFeature#1/pages[id: 2]"
    detail = "AppFeature#1/detail"
    s.add(0.0, "session.started", pid=4242, program="PagesDemo", protocolVersion="1", startedAt=HEADER["startedAt"])
    s.add(0.5, "store.created", store=app, type="AppFeature", parent=None, identity="AppFeature#1")
    s.add(0.75, "derived.recomputed", store=app, derived="totalCount", cause=None, outputChanged=True, durationNs=2100)
    for page, store, t in ((1, p1, 1.0), (2, p2, 1.25)):
        s.add(t, "store.created", store=store, type="PageFeature", parent=app, identity=f"PageFeature@{page}")
        s.add(t + 0.05, "identity.changed", store=store, identity=f"PageFeature@{page}", previous=None, reason="inserted")
    a = s.add(2.0, "action.received", store=p1, action="PageFeature.Action.onAppear", value=None, origin="send", source=src("PagerView.swift", 31))
    s.add(2.1, "state.changed", store=p1, cause=a, changes=[{"path": "isVisible", "op": "replace", "old": False, "new": True}], summary="PageFeature#1: _isVisible changed.")
    s.add(2.2, "effect.started", store=p1, effect=1, cause=a, cancelID="timer", source=src("PageFeature.swift", 24))
    for tick in range(1, 4):
        t = 2.2 + tick * 1000.0
        a = s.add(t, "action.received", store=p1, action="PageFeature.Action.timerTicked", value=None, origin="effect", effect=1, source=src("PageFeature.swift", 24))
        s.add(t + 0.02, "state.changed", store=p1, cause=a, changes=[{"path": "count", "op": "replace", "old": tick - 1, "new": tick}], summary="PageFeature#1: _count changed.")
        s.add(t + 0.03, "derived.recomputed", store=app, derived="totalCount", cause=a, outputChanged=True, durationNs=1800)
    a = s.add(3100.0, "action.received", store=app, action="AppFeature.Action.themeToggled", value=None, origin="send", source=src("SettingsView.swift", 12, path=False))
    s.add(3100.04, "state.changed", store=app, cause=a, changes=[{"path": "theme", "op": "replace", "old": "light", "new": "dark", "oldShape": {"enums": [""]}, "newShape": {"enums": [""]}}], summary="AppFeature#1: _theme changed.")
    s.add(3100.05, "derived.recomputed", store=app, derived="totalCount", cause=a, outputChanged=False, durationNs=1700)
    s.add(3300.0, "mark", label="swipe to page 2")
    a = s.add(3300.5, "action.received", store=p2, action="PageFeature.Action.onAppear", value=None, origin="send", source=src("PagerView.swift", 31))
    s.add(3300.6, "state.changed", store=p2, cause=a, changes=[{"path": "isVisible", "op": "replace", "old": False, "new": True}], summary="PageFeature#2: _isVisible changed.")
    s.add(3300.7, "effect.cancelled", store=p1, effect=1, cancelID="timer", reason="cancelInFlight", by={"store": p2, "cause": a, "source": src("PageFeature.swift", 29)})
    s.add(3300.8, "effect.started", store=p2, effect=2, cause=a, cancelID="timer", source=src("PageFeature.swift", 24))
    a = s.add(3500.0, "action.received", store=app, action="AppFeature.Action.settingsChanged", value={"settingsChanged": {"fontSize": 14}}, origin="send", source=src("SettingsView.swift", 20), shape={"enums": [""], "tuples": ["settingsChanged"]})
    s.add(3500.03, "state.changed", store=app, cause=a, changes=[{"path": "settings.fontSize", "op": "replace", "old": 12, "new": 14}], summary="AppFeature#1: _settings changed.")
    s.add(3500.04, "derived.recomputed", store=app, derived="totalCount", cause=a, outputChanged=False, durationNs=1650)
    # The detail sheet, presented three times: a new identity each time.
    for n, t in ((1, 3600.0), (2, 3800.0), (3, 4000.0)):
        a = s.add(t, "action.received", store=app, action="AppFeature.Action.detailButtonTapped", value=None, origin="send", source=src("PagerView.swift", 44))
        s.add(t + 0.05, "state.changed", store=app, cause=a, changes=[{"path": "detail", "op": "replace", "old": None, "new": {"text": ""}}], summary="AppFeature#1: _detail changed.")
        s.add(t + 0.06, "store.created", store=detail, type="DetailFeature", parent=app, identity=f"DetailFeature@{n}")
        s.add(t + 0.07, "identity.changed", store=detail, identity=f"DetailFeature@{n}", previous=None, reason="presented")
        e = 2 + n
        s.add(t + 0.08, "effect.started", store=detail, effect=e, cause=a, cancelID=None, source=src("AppFeature.swift", 58))
        if n < 3:
            s.add(t + 40.0, "effect.finished", store=detail, effect=e, outcome="failed" if n == 2 else "completed", **({"error": "URLError.timedOut"} if n == 2 else {}))
        a = s.add(t + 100.0, "action.received", store=app, action="AppFeature.Action.detailDismissed", value=None, origin="send", source=src("DetailView.swift", 15))
        s.add(t + 100.05, "state.changed", store=app, cause=a, changes=[{"path": "detail", "op": "replace", "old": {"text": ""}, "new": None}], summary="AppFeature#1: _detail changed.")
        s.add(t + 100.06, "identity.changed", store=detail, identity=f"DetailFeature@{n}", previous=None, reason="dismissed")
        if n == 3:
            # Still loading when dismissed: ended with its identity, by the parent's action (not a pitfall).
            s.add(t + 100.065, "effect.cancelled", store=detail, effect=e, cancelID=None, reason="identityEnded", by={"store": app, "cause": a, "source": src("DetailView.swift", 15)})
        s.add(t + 100.07, "store.destroyed", store=detail, identity=f"DetailFeature@{n}")
    s.add(4200.0, "warning", code="sendToEndedStore", message="PageFeature.Action.saveTapped was sent to a store whose identity has ended; it was ignored.", store=detail, source=src("DetailView.swift", 22))
    s.add(4250.0, "dropped", count=3)
    a = s.add(4300.0, "action.received", store=p2, action="PageFeature.Action.timerTicked", value=None, origin="effect", effect=2, source=src("PageFeature.swift", 24))
    s.add(4300.02, "state.changed", store=p2, cause=a, changes=[{"path": "count", "op": "replace", "old": 0, "new": 1}], summary="PageFeature#2: _count changed.")
    s.add(4300.03, "derived.recomputed", store=app, derived="totalCount", cause=a, outputChanged=True, durationNs=1900)
    return s.events

def clean():
    s = Session()
    app = "CounterFeature#1"
    s.add(0.0, "session.started", pid=7, program="Counter", protocolVersion="1", startedAt="2026-11-22T09:00:00.000Z")
    s.add(0.1, "store.created", store=app, type="CounterFeature", parent=None, identity=app)
    a = s.add(1.0, "action.received", store=app, action="CounterFeature.Action.incrementTapped", value=None, origin="send")
    s.add(1.05, "state.changed", store=app, cause=a, changes=[{"path": "count", "op": "replace", "old": 0, "new": 1}], summary="CounterFeature#1: _count changed.")
    a = s.add(2.0, "action.received", store=app, action="CounterFeature.Action.factButtonTapped", value=None, origin="send")
    s.add(2.1, "state.changed", store=app, cause=a, changes=[{"path": "isLoading", "op": "replace", "old": False, "new": True}], summary="CounterFeature#1: _isLoading changed.")
    s.add(2.2, "effect.started", store=app, effect=1, cause=a, cancelID="fact")
    a = s.add(252.2, "action.received", store=app, action="CounterFeature.Action.factResponse", value={"factResponse": {"success": "1 is the loneliest number."}}, origin="effect", effect=1)
    s.add(252.3, "state.changed", store=app, cause=a, changes=[
        {"path": "isLoading", "op": "replace", "old": True, "new": False},
        {"path": "fact", "op": "replace", "old": None, "new": "1 is the loneliest number."}], summary="CounterFeature#1: _isLoading, _fact changed.")
    s.add(252.4, "effect.finished", store=app, effect=1, outcome="completed")
    return s.events

def doctor():
    """What doctor must tell apart: a child given a new identity by every action that touches it
    (seed 002's churn) against a sheet presented again after it was dismissed (its normal
    lifetime); a memoized derived value whose input is wider than its output (a note) against
    a healthy memoized one whose output sometimes stays the same (nothing to say)."""
    s = Session()
    app = "SettingsFeature#1"
    profile = "SettingsFeature#1/profile"
    sheet = "SettingsFeature#1/sheet"
    s.add(0.0, "session.started", pid=9, program="Settings", protocolVersion="1", startedAt="2026-11-22T11:00:00.000Z")
    s.add(0.1, "store.created", store=app, type="SettingsFeature", parent=None, identity=app)
    s.add(0.2, "derived.recomputed", store=app, derived="initials", cause=None, outputChanged=True, durationNs=900)
    s.add(0.3, "derived.recomputed", store=app, derived="badge", cause=None, outputChanged=True, durationNs=700)
    s.add(0.4, "store.created", store=profile, type="ProfileFeature", parent=app, identity="ProfileFeature@1")
    s.add(0.5, "identity.changed", store=profile, identity="ProfileFeature@1", previous=None, reason="created")
    t = 10.0
    for n in range(2, 5):
        # Each edit rebuilds the profile with a new id: its state starts over every time.
        a = s.add(t, "action.received", store=app, action="SettingsFeature.Action.nameEdited", value={"nameEdited": f"Blob {n}"}, origin="send")
        s.add(t + 0.1, "state.changed", store=app, cause=a, changes=[{"path": "profile", "op": "replace", "old": {"id": n - 1}, "new": {"id": n}}], summary="SettingsFeature#1: _profile changed.")
        s.add(t + 0.2, "identity.changed", store=profile, identity=f"ProfileFeature@{n}", previous=f"ProfileFeature@{n - 1}", reason="replaced")
        s.add(t + 0.3, "derived.recomputed", store=app, derived="initials", cause=a, outputChanged=False, durationNs=800)
        s.add(t + 0.4, "derived.recomputed", store=app, derived="badge", cause=a, outputChanged=n != 4, durationNs=600)
        t += 10.0
    for n in range(1, 4):
        # A sheet shown and closed by two separate actions, three times: not churn.
        a = s.add(t, "action.received", store=app, action="SettingsFeature.Action.helpTapped", value=None, origin="send")
        s.add(t + 0.1, "state.changed", store=app, cause=a, changes=[{"path": "sheet", "op": "replace", "old": None, "new": {"page": 1}}], summary="SettingsFeature#1: _sheet changed.")
        s.add(t + 0.2, "store.created", store=sheet, type="HelpFeature", parent=app, identity=f"HelpFeature@{n}")
        s.add(t + 0.3, "identity.changed", store=sheet, identity=f"HelpFeature@{n}", previous=None, reason="presented")
        a = s.add(t + 5.0, "action.received", store=app, action="SettingsFeature.Action.helpClosed", value=None, origin="send")
        s.add(t + 5.1, "state.changed", store=app, cause=a, changes=[{"path": "sheet", "op": "replace", "old": {"page": 1}, "new": None}], summary="SettingsFeature#1: _sheet changed.")
        s.add(t + 5.2, "identity.changed", store=sheet, identity=f"HelpFeature@{n}", previous=None, reason="dismissed")
        s.add(t + 5.3, "store.destroyed", store=sheet, identity=f"HelpFeature@{n}")
        t += 10.0
    return s.events

def states():
    s = Session()
    app = "AppFeature#1"
    p1 = "AppFeature#1/pages[id: 1]"
    p2 = "AppFeature#1/pages[id: 2]"
    detail = "AppFeature#1/detail"
    state = {"theme": "light", "settings": {"fontSize": 12, "sound": True},
             "pages": [{"id": 1, "title": "One", "count": 0, "isVisible": False, "mode": "idle"},
                       {"id": 2, "title": "Two", "count": 0, "isVisible": False, "mode": {"playing": {"speed": 2, "since": 1.5}}}],
             "detail": None}
    s.add(0.0, "session.started", pid=4242, program="PagesDemo", protocolVersion="1", startedAt=HEADER["startedAt"])
    s.add(0.5, "store.created", store=app, type="AppFeature", parent=None, identity=app)
    # Shapes (protocol/values.md): the theme is an enum case; a page's mode one with a payload.
    shape = {"enums": ["theme", "pages[*].mode"], "tuples": ["pages[*].mode.playing"]}
    s.add(0.6, "state.snapshot", store=app, cause=None, state=json.loads(json.dumps(state)), shape=shape)
    for page, store, t in ((1, p1, 1.0), (2, p2, 1.25)):
        s.add(t, "store.created", store=store, type="PageFeature", parent=app, identity=f"PageFeature@{page}")
    a = s.add(2.0, "action.received", store=p1, action="PageFeature.Action.onAppear", value=None, origin="send", source=src("PagerView.swift", 31))
    s.add(2.1, "state.changed", store=p1, cause=a, changes=[{"path": "isVisible", "op": "replace", "old": False, "new": True}], summary="PageFeature#1: _isVisible changed.")
    for tick in range(1, 3):
        a = s.add(2.0 + tick * 1000.0, "action.received", store=p1, action="PageFeature.Action.timerTicked", value=None, origin="send", source=src("PageFeature.swift", 24))
        s.add(2.02 + tick * 1000.0, "state.changed", store=p1, cause=a, changes=[{"path": "count", "op": "replace", "old": tick - 1, "new": tick}], summary="PageFeature#1: _count changed.")
    a = s.add(2100.0, "action.received", store=app, action="AppFeature.Action.themeToggled", value=None, origin="send", source=src("SettingsView.swift", 12))
    s.add(2100.04, "state.changed", store=app, cause=a, changes=[{"path": "theme", "op": "replace", "old": "light", "new": "dark", "oldShape": {"enums": [""]}, "newShape": {"enums": [""]}}], summary="AppFeature#1: _theme changed.")
    a = s.add(2200.0, "action.received", store=app, action="AppFeature.Action.detailButtonTapped", value=None, origin="send", source=src("PagerView.swift", 44))
    s.add(2200.05, "state.changed", store=app, cause=a, changes=[{"path": "detail", "op": "replace", "old": None, "new": {"text": ""}}], summary="AppFeature#1: _detail changed.")
    s.add(2200.06, "store.created", store=detail, type="DetailFeature", parent=app, identity="DetailFeature@1")
    a = s.add(2300.0, "action.received", store=detail, action="DetailFeature.Action.textChanged", value={"textChanged": "Hi"}, origin="send", source=src("DetailView.swift", 9))
    s.add(2300.02, "state.changed", store=detail, cause=a, changes=[{"path": "text", "op": "replace", "old": "", "new": "Hi"}], summary="DetailFeature#1: _text changed.")
    a = s.add(2400.0, "action.received", store=app, action="AppFeature.Action.detailDismissed", value=None, origin="send", source=src("DetailView.swift", 15))
    s.add(2400.05, "state.changed", store=app, cause=a, changes=[{"path": "detail", "op": "replace", "old": {"text": "Hi"}, "new": None}], summary="AppFeature#1: _detail changed.")
    s.add(2400.07, "store.destroyed", store=detail, identity="DetailFeature@1")
    # The snapshot policy's next snapshot (here after a handful of actions, to keep it short).
    state["theme"] = "dark"
    state["pages"][0].update(count=2, isVisible=True)
    s.add(2400.1, "state.snapshot", store=app, cause=a, state=json.loads(json.dumps(state)), shape=shape)
    a = s.add(3300.5, "action.received", store=p2, action="PageFeature.Action.onAppear", value=None, origin="send", source=src("PagerView.swift", 31))
    s.add(3300.6, "state.changed", store=p2, cause=a, changes=[{"path": "isVisible", "op": "replace", "old": False, "new": True}], summary="PageFeature#2: _isVisible changed.")
    a = s.add(3500.0, "action.received", store=p2, action="PageFeature.Action.titlePasted", value={"titlePasted": "T" * 40}, origin="send", source=src("PageFeature.swift", 40))
    # Cut short by the string cap: from here on the state is approximate.
    s.add(3500.03, "state.changed", store=p2, cause=a, changes=[{"path": "title", "op": "replace", "old": "Two", "new": "TTTTTTTTTT… (30 more characters)", "truncated": True}], summary="PageFeature#2: _title changed.")
    return s.events

if __name__ == "__main__":
    write("doctor.loupe", {"format": "loupe-trace", "version": 1, "program": "Settings", "pid": 9, "startedAt": "2026-11-22T11:00:00.000Z"}, doctor())
    events = pages()
    write("pages.loupe", HEADER, events)
    write("state.loupe", HEADER, states())
    clean_header = {"format": "loupe-trace", "version": 1, "program": "Counter", "pid": 7, "startedAt": "2026-11-22T09:00:00.000Z"}
    write("counter.loupe", clean_header, clean())
    # The counter recording, cut short in the middle of its last event.
    full = (json.dumps(clean_header, separators=(",", ":")) + "\n" + "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in clean())).encode()
    with open(os.path.join(HERE, "truncated.loupe"), "wb") as f:
        f.write(full[: len(full) - 30])
    with open(os.path.join(HERE, "foreign.json"), "wb") as f:
        f.write(b'{"name":"my-package","version":"1.0.0","dependencies":{}}\n')
    with open(os.path.join(HERE, "newer.loupe"), "wb") as f:
        f.write(b'{"format":"loupe-trace","version":2,"program":"Future","pid":1,"startedAt":"2030-01-01T00:00:00.000Z"}\n')
    with open(os.path.join(HERE, "damaged.loupe"), "wb") as f:
        lines = full.split(b"\n")
        lines[3] = lines[3][:25]  # a line cut short by a full disk, then the writer went on
        f.write(b"\n".join(lines))
