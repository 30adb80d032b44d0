"""`loupe export` read by what others wrote: every OTLP/JSON line parsed by the official
OpenTelemetry protos (opentelemetry-proto + protobuf's json_format) plus the checks json_format
skips (hex ids, lowerCamelCase keys, enums as integers); the .pftrace parsed by perfetto's own
perfetto_trace_pb2 (tracks, balanced slices, both ends of every flow); and OTLP/HTTP delivery to
a receiver written here with the standard library (127.0.0.1 only) that decodes each body with
the official proto. Run by .ci/checks/55-export.sh."""

import fnmatch
import glob
import http.server
import json
import os
import pathlib
import re
import socket
import subprocess
import tempfile
import threading
import unittest
from collections import Counter, defaultdict

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from perfetto.protos.perfetto.trace import perfetto_trace_pb2

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("LOUPE_BIN_DIR", ROOT / ".build" / "debug"))
LOUPE = str(BIN / "loupe")
TMP = pathlib.Path(tempfile.mkdtemp(prefix="loupe-export-tests-"))
FIXTURES = sorted(
    p for p in glob.glob(str(ROOT / "Tests" / "*" / "Fixtures" / "*.loupe"))
    if not p.endswith("newer.loupe"))  # a future format version: refused, as it should be
SEED000 = str(ROOT / "Tests" / "LoupeTestingTests" / "Fixtures" / "pages-shared-cancellation.loupe")

KEY = re.compile(r"^[a-z][A-Za-z0-9]*$")
HEX32 = re.compile(r"^[0-9a-f]{32}$")
HEX16 = re.compile(r"^[0-9a-f]{16}$")
DIGITS = re.compile(r"^-?[0-9]+$")


def loupe(*args, env=None, check=True):
    environment = dict(os.environ, NO_COLOR="1", **(env or {}))
    run = subprocess.run([LOUPE, *args], env=environment, capture_output=True, text=True, timeout=120)
    if check and run.returncode != 0:
        raise AssertionError(f"loupe {' '.join(args)} exited {run.returncode}: {run.stderr}")
    return run


def events_of(path):
    with open(path) as f:
        lines = f.read().splitlines()[1:]
    events = []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            pass  # damaged fixtures: loupe skips these lines too
    return events


def attributes(owner):
    out = {}
    for a in owner.get("attributes", []):
        (kind, value), = a["value"].items()
        out[a["key"]] = value
    return out


def check_keys(test, value, where):
    if isinstance(value, dict):
        for key, inner in value.items():
            test.assertRegex(key, KEY, f"{where}: key {key!r} is not lowerCamelCase")
            check_keys(test, inner, where)
    elif isinstance(value, list):
        for inner in value:
            check_keys(test, inner, where)


def check_otlp(test, text, where):
    """Every line: parsed by the official proto, then what json_format doesn't check. Returns the spans."""
    spans = []
    lines = text.splitlines()
    test.assertTrue(lines, f"{where}: no OTLP lines")
    for number, line in enumerate(lines, 1):
        here = f"{where} line {number}"
        json_format.Parse(line, ExportTraceServiceRequest())  # raises on anything the proto doesn't have
        request = json.loads(line)
        check_keys(test, request, here)
        for resource_spans in request["resourceSpans"]:
            resource = attributes(resource_spans["resource"])
            test.assertIn("service.name", resource)
            test.assertRegex(resource["process.pid"], DIGITS)
            for scope_spans in resource_spans["scopeSpans"]:
                test.assertEqual(scope_spans["scope"]["name"], "loupe")
                for span in scope_spans["spans"]:
                    test.assertRegex(span["traceId"], HEX32, here)
                    test.assertRegex(span["spanId"], HEX16, here)
                    if "parentSpanId" in span:
                        test.assertRegex(span["parentSpanId"], HEX16, here)
                    test.assertIsInstance(span["kind"], int, f"{here}: kind must be an integer")
                    for field in ("startTimeUnixNano", "endTimeUnixNano"):
                        test.assertIsInstance(span[field], str, f"{here}: {field} is a decimal string")
                        test.assertRegex(span[field], DIGITS)
                    test.assertLessEqual(int(span["startTimeUnixNano"]), int(span["endTimeUnixNano"]), here)
                    if "status" in span:
                        test.assertIsInstance(span["status"]["code"], int, f"{here}: status code must be an integer")
                    test.assertIn("loupe.seq", attributes(span), f"{here}: span {span['name']} without loupe.seq")
                    for event in span.get("events", []):
                        test.assertRegex(event["timeUnixNano"], DIGITS)
                        test.assertIn("loupe.seq", attributes(event), f"{here}: event {event['name']} without loupe.seq")
                    for link in span.get("links", []):
                        test.assertRegex(link["traceId"], HEX32)
                        test.assertRegex(link["spanId"], HEX16)
                    for owner in [span, *span.get("events", []), *span.get("links", [])]:
                        for a in owner.get("attributes", []):
                            (kind, value), = a["value"].items()
                            if kind == "intValue":
                                test.assertIsInstance(value, str, f"{here}: intValue is a decimal string")
                                test.assertRegex(value, DIGITS)
                    spans.append(span)
    # Fixtures may share a header (and so a trace id): ids are unique within a trace.
    ids = Counter((span["traceId"], span["spanId"]) for span in spans)
    test.assertEqual([i for i, n in ids.items() if n > 1], [], f"{where}: span ids used twice")
    for span in spans:
        if "parentSpanId" in span:
            test.assertIn((span["traceId"], span["parentSpanId"]), ids, f"{where}: {span['name']}'s parent is not exported")
    return spans


class OTLPFileTests(unittest.TestCase):
    def test_every_fixture_parses_and_is_deterministic(self):
        for fixture in FIXTURES:
            with self.subTest(fixture=os.path.basename(fixture)):
                out = TMP / (os.path.basename(fixture) + ".jsonl")
                loupe("export", fixture, "--otlp", str(out))
                text = out.read_text()
                spans = check_otlp(self, text, fixture)
                events = events_of(fixture)
                names = Counter(s["name"] for s in spans)
                for kind in ("action.received", "effect.started"):
                    self.assertLessEqual(sum(1 for e in events if e.get("kind") == kind) - 1,
                                         sum(1 for s in spans if attributes(s).get("loupe.seq") in
                                             {str(e["seq"]) for e in events if e.get("kind") == kind}))
                self.assertEqual(loupe("export", fixture, "--otlp", "-").stdout, text, "exporting twice gives other bytes")

    def test_many_traces_in_one_export(self):
        out = TMP / "many.jsonl"
        loupe("export", *FIXTURES, "--otlp", str(out))
        spans = check_otlp(self, out.read_text(), "many")
        # One trace per run, even for made-up fixtures sharing a header.
        self.assertEqual(len({s["traceId"] for s in spans}), len(FIXTURES))

    def test_seed000_cancellation_links_the_cancelling_action_across_stores(self):
        out = TMP / "seed000.jsonl"
        loupe("export", SEED000, "--otlp", str(out))
        spans = {s["spanId"]: s for s in check_otlp(self, out.read_text(), "seed000")}
        cancellations = [e for e in events_of(SEED000) if e["kind"] == "effect.cancelled" and e.get("by")]
        self.assertTrue(cancellations)
        across = 0
        for cancelled in cancellations:
            effect = next(s for s in spans.values() if attributes(s).get("loupe.effect.id") == str(cancelled["effect"])
                          and s["name"].startswith("effect"))
            links = [l for l in effect.get("links", []) if attributes(l)["loupe.link"] == "cancelled_by"]
            self.assertEqual(len(links), 1, effect["name"])
            action = spans[links[0]["spanId"]]
            self.assertEqual(attributes(action)["loupe.seq"], str(cancelled["by"]["cause"]))
            self.assertEqual(attributes(action)["loupe.store"], cancelled["by"]["store"])
            self.assertEqual(effect["parentSpanId"], next(
                i for i, s in spans.items() if attributes(s).get("loupe.seq") == attributes(effect)["loupe.cause"]
                and "loupe.action.origin" in attributes(s)))
            if cancelled["by"]["store"] != cancelled["store"]:
                across += 1
        self.assertGreater(across, 0, "seed 000 has cancellations by another store")

    def test_redacted_paths_stay_redacted(self):
        trace = TMP / "todos.loupe"
        env = dict(LOUPE_RECORD=str(trace), LOUPE_REDACT="*title*,query")
        subprocess.run([str(BIN / "loupe-examples"), "todos", "--seconds", "1"], env=dict(os.environ, **env),
                       check=True, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = TMP / "todos.jsonl"
        loupe("export", str(trace), "--otlp", str(out))
        text = out.read_text()
        redacted = 0
        for span in check_otlp(self, text, "todos"):
            for event in span.get("events", []):
                changes = attributes(event).get("loupe.changes")
                for change in json.loads(changes) if changes else []:
                    if any(fnmatch.fnmatchcase(change["path"], glob) for glob in ("*title*", "query")):
                        redacted += 1
                        for side in ("old", "new"):
                            if side in change:
                                self.assertEqual(change[side], "<redacted>", change)
        self.assertGreater(redacted, 0, "the todos run changed a redacted path")
        # Snapshots' states stay out of the export altogether.
        self.assertNotIn('"isDone"', text)


def read_pftrace(path):
    trace = perfetto_trace_pb2.Trace()
    trace.ParseFromString(pathlib.Path(path).read_bytes())
    return trace


class PerfettoTests(unittest.TestCase):
    def check(self, fixture):
        out = TMP / (os.path.basename(fixture) + ".pftrace")
        loupe("export", fixture, "--perfetto", str(out))
        trace = read_pftrace(out)
        tracks, events = {}, []
        for index, packet in enumerate(trace.packet):
            if packet.HasField("track_descriptor"):
                d = packet.track_descriptor
                self.assertNotIn(d.uuid, tracks, "a track described twice")
                tracks[d.uuid] = d
            if packet.HasField("track_event"):
                self.assertIn(packet.track_event.track_uuid, tracks, "an event on a track described later or never")
                events.append((packet.timestamp, index, packet.track_event))
        for d in tracks.values():
            if d.HasField("parent_uuid"):
                self.assertIn(d.parent_uuid, tracks)
        # Slices balance on every track, in time order as trace processor reads them.
        depth = defaultdict(int)
        names = Counter()
        for ts, _, e in sorted(events, key=lambda x: (x[0], x[1])):
            if e.type == e.TYPE_SLICE_BEGIN:
                depth[e.track_uuid] += 1
                names[e.categories[0]] += 1
            elif e.type == e.TYPE_SLICE_END:
                depth[e.track_uuid] -= 1
                self.assertGreaterEqual(depth[e.track_uuid], 0, f"an end without a begin on {tracks[e.track_uuid].name}")
        self.assertEqual({k: v for k, v in depth.items() if v}, {}, "slices left open")
        # Every flow has both ends, the source first.
        starts, ends = {}, {}
        for ts, index, e in events:
            for flow in e.flow_ids:
                self.assertNotIn(flow, starts)
                starts[flow] = (ts, index)
            for flow in e.terminating_flow_ids:
                self.assertNotIn(flow, ends)
                ends[flow] = (ts, index)
        self.assertEqual(set(starts), set(ends), "a flow with one end")
        for flow in starts:
            # Same-time ends happen when a trace's clock didn't move (synthetic fixtures).
            self.assertLessEqual(starts[flow][0], ends[flow][0], "a flow arrives before it leaves")
        source = events_of(fixture)
        stores = {e["store"] for e in source if e.get("store")}
        self.assertTrue(stores <= {d.name for d in tracks.values()}, "a store without a track")
        for e in source:
            if e.get("kind") == "store.created" and e.get("parent"):
                child = next(d for d in tracks.values() if d.name == e["store"])
                self.assertEqual(tracks[child.parent_uuid].name, e["parent"])
        self.assertEqual(names["action"], sum(1 for e in source if e.get("kind") == "action.received"))
        self.assertEqual(names["effect"], sum(1 for e in source if e.get("kind") == "effect.started"))
        return starts

    def test_every_fixture(self):
        for fixture in FIXTURES:
            with self.subTest(fixture=os.path.basename(fixture)):
                self.check(fixture)

    def test_seed000_has_arrows_for_starts_sends_and_cancellations(self):
        flows = self.check(SEED000)
        source = events_of(SEED000)
        expected = (sum(1 for e in source if e["kind"] == "effect.started")
                    + sum(1 for e in source if e["kind"] == "action.received" and e.get("effect"))
                    + sum(1 for e in source if e["kind"] == "effect.cancelled" and e.get("by")))
        self.assertEqual(len(flows), expected)


class Receiver:
    """An OTLP/HTTP receiver on 127.0.0.1: decodes each body with the official proto."""

    def __init__(self, answers=()):
        self.answers = list(answers)  # statuses to give before answering 200 (None: always 200)
        self.always = None
        self.spans = Counter()
        self.posts = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts += 1
                assert self.path == "/v1/traces", self.path
                assert self.headers["Content-Type"] == "application/json", self.headers["Content-Type"]
                status = receiver.always or (receiver.answers.pop(0) if receiver.answers else 200)
                if status == "drop":  # the connection lost: no answer at all
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if status == 200:
                    request = ExportTraceServiceRequest()
                    json_format.Parse(body, request)
                    # json_format reads the hex ids as base64, so count them from the JSON itself.
                    for resource_spans in json.loads(body)["resourceSpans"]:
                        for scope_spans in resource_spans["scopeSpans"]:
                            for span in scope_spans["spans"]:
                                receiver.spans[span["spanId"]] += 1
                    assert sum(len(s.spans) for r in request.resource_spans for s in r.scope_spans) == \
                        sum(len(s["spans"]) for r in json.loads(body)["resourceSpans"] for s in r["scopeSpans"])
                    if receiver.posts == receiver.fail_after:
                        receiver.always = 503
                reply = receiver.reply
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.fail_after = None
        self.reply = b"{}"
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def big_trace(path, actions=3000):
    """A run with many actions, so its export takes several requests."""
    lines = [json.dumps({"format": "loupe-trace", "version": 1, "program": "Big", "pid": 9, "startedAt": "2026-11-22T09:00:00.000Z"}),
             json.dumps({"seq": 1, "time": 0.0, "kind": "store.created", "store": "Big#1", "type": "Big", "parent": None, "identity": "Big#1"})]
    seq = 1
    for n in range(actions):
        seq += 1
        lines.append(json.dumps({"seq": seq, "time": n + 1.0, "kind": "action.received", "store": "Big#1", "action": "Big.Action.tick", "value": n, "origin": "send"}))
        seq += 1
        lines.append(json.dumps({"seq": seq, "time": n + 1.5, "kind": "state.changed", "store": "Big#1", "cause": seq - 1,
                                 "changes": [{"path": "count", "op": "replace", "old": n, "new": n + 1}], "summary": "Big#1: _count changed."}))
    pathlib.Path(path).write_text("\n".join(lines) + "\n")


class EndpointTests(unittest.TestCase):
    env = {"LOUPE_OTLP_BACKOFF_MS": "20"}

    @classmethod
    def setUpClass(cls):
        cls.big = TMP / "big.loupe"
        big_trace(cls.big)
        out = TMP / "big.jsonl"
        loupe("export", str(cls.big), SEED000, "--otlp", str(out))
        cls.expected = Counter(s["spanId"] for s in check_otlp(unittest.TestCase(), out.read_text(), "big"))

    def test_full_export_arrives_once(self):
        receiver = Receiver()
        try:
            run = loupe("export", str(self.big), SEED000, "--otlp-endpoint", receiver.url, env=self.env)
        finally:
            receiver.close()
        self.assertEqual(receiver.spans, self.expected)
        self.assertGreater(receiver.posts, 2, "a big run goes in several requests")
        self.assertIn(f"{sum(self.expected.values()):,} spans delivered to {receiver.url}/v1/traces", run.stderr)

    def test_503_twice_then_200_gets_everything_exactly_once(self):
        receiver = Receiver(answers=[503, 503])
        try:
            loupe("export", str(self.big), SEED000, "--otlp-endpoint", receiver.url + "/", env=self.env)
        finally:
            receiver.close()
        self.assertEqual(receiver.spans, self.expected)
        self.assertEqual(max(receiver.spans.values()), 1)

    def test_a_lost_connection_is_retried(self):
        receiver = Receiver(answers=["drop", 200, "drop"])
        try:
            loupe("export", str(self.big), SEED000, "--otlp-endpoint", receiver.url, env=self.env)
        finally:
            receiver.close()
        self.assertEqual(receiver.spans, self.expected)

    def test_a_partial_success_is_reported(self):
        receiver = Receiver()
        receiver.reply = b'{"partialSuccess":{"rejectedSpans":"1","errorMessage":"span too old"}}'
        try:
            run = loupe("export", SEED000, "--otlp-endpoint", receiver.url, env=self.env)
        finally:
            receiver.close()
        delivered = sum(receiver.spans.values()) - 1
        self.assertIn(f"note: {delivered} spans delivered to {receiver.url}/v1/traces in 1 request.", run.stderr)
        self.assertIn("warning: the endpoint rejected 1 span: span too old.", run.stderr)

    def test_unreachable_endpoint_exits_3_saying_what_was_delivered(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # closed again: nothing listens there
        run = loupe("export", SEED000, "--otlp-endpoint", f"http://127.0.0.1:{port}", env=self.env, check=False)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn(f"Error: Cannot deliver spans to http://127.0.0.1:{port}/v1/traces", run.stderr)
        self.assertIn("0 spans delivered before that", run.stderr)

    def test_endpoint_failing_midway_says_how_many_spans_arrived(self):
        receiver = Receiver()
        receiver.fail_after = 1  # the first request is taken, then 503 for good
        try:
            run = loupe("export", str(self.big), "--otlp-endpoint", receiver.url, env=self.env, check=False)
        finally:
            receiver.close()
        delivered = sum(receiver.spans.values())
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertGreater(delivered, 0)
        self.assertIn("HTTP 503", run.stderr)
        self.assertIn(f"{delivered:,} spans delivered before that", run.stderr)


if __name__ == "__main__":
    unittest.main()
