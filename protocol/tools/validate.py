#!/usr/bin/env python3
"""Validates Loupe protocol traffic and documentation against protocol/schemas.

  validate.py --capture BINARY [--write-session FILE]
      Launches `BINARY probe --hold` with LOUPE=stdio, drives a session that touches every
      method, error and notification, and validates everything the server sends.
  validate.py --server-log FILE...
      Validates files of server message bodies, one JSON per line (the Swift e2e tests
      write these to .build/protocol-capture/).
  validate.py --docs
      Validates every example in protocol/*.md and README.md that is preceded by an
      `<!-- schema: REF -->` comment, and every protocol/sessions/*.jsonl transcript.

Exit status 0 when everything is valid.
"""
import argparse, glob, json, os, re, subprocess, sys, threading

from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "schemas")
BASE = "https://loupe.invalid/protocol/schemas/"


def load_registry():
    resources = []
    for path in glob.glob(os.path.join(SCHEMAS, "**", "*.json"), recursive=True):
        with open(path) as f:
            schema = json.load(f)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


REGISTRY = load_registry()
METHODS = {}  # method name -> schema file (relative to schemas/)
for path in glob.glob(os.path.join(SCHEMAS, "methods", "*.json")):
    with open(path) as f:
        METHODS[json.load(f)["x-method"]] = os.path.relpath(path, SCHEMAS)


class Report:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, value, ref, where):
        validator = Draft202012Validator({"$ref": BASE + ref}, registry=REGISTRY, format_checker=FormatChecker())
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        if errors:
            detail = "; ".join(f"{'/'.join(map(str, e.path)) or '(root)'}: {e.message}" for e in errors[:3])
            self.failures.append(f"{where}: not a valid {ref}: {detail}")
        else:
            self.passed += 1

    def expect(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failures.append(message)


def validate_server_message(report, message, pending, where):
    """Validates one server message; `pending` maps request ids to methods."""
    report.check(message, "jsonrpc.json#/$defs/ServerMessage", where)
    items = message if isinstance(message, list) else [message]
    for item in items:
        if not isinstance(item, dict):
            continue
        if "method" in item:
            schema = METHODS.get(item["method"])
            if schema is None:
                report.failures.append(f"{where}: unknown server notification {item['method']}")
            else:
                report.check(item.get("params"), schema + "#/$defs/params", where + " " + item["method"])
        elif "result" in item:
            method = pending.pop(json.dumps(item["id"]), None)
            if method is None:
                report.failures.append(f"{where}: response to unknown id {item['id']}")
            else:
                report.check(item["result"], METHODS[method] + "#/$defs/result", f"{where} result of {method}")
        elif "error" in item and item.get("id") is not None:
            pending.pop(json.dumps(item["id"]), None)


def validate_client_message(report, message, pending, where):
    items = message if isinstance(message, list) else [message]
    for item in items:
        kind = "Request" if "id" in item else "Notification"
        report.check(item, f"jsonrpc.json#/$defs/{kind}", where)
        schema = METHODS.get(item.get("method"))
        if schema is not None:
            report.check(item.get("params"), schema + "#/$defs/params", f"{where} params of {item['method']}")
        if kind == "Request":
            pending[json.dumps(item["id"])] = item["method"]


# ---------------------------------------------------------------- live capture

class StdioSession:
    def __init__(self, binary):
        env = dict(os.environ, LOUPE="stdio")
        env.pop("LOUPE_RECORD", None)
        self.process = subprocess.Popen([binary, "probe", "--hold", "--seconds", "30"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        # The probe takes commands (`loupe/mark` "probe:burst N") once it says it is ready;
        # then its stderr is drained on a thread of its own.
        for line in self.process.stderr:
            if line.startswith(b"probe: ready"):
                break
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        self.transcript = []
        self.events = []  # every event received so far

    def send_raw(self, body):
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message, invalid=False):
        """Sends a message; `invalid` marks one that is wrong on purpose in the transcript."""
        entry = {"from": "client", "message": message}
        if invalid:
            entry["invalid"] = True
        self.transcript.append(entry)
        self.send_raw(json.dumps(message).encode())

    def receive(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self.process.stdout.read(1)
            if not byte:
                raise EOFError("the server closed the connection")
            header += byte
        length = int(re.search(rb"Content-Length: *(\d+)", header, re.I).group(1))
        message = json.loads(self.process.stdout.read(length))
        self.transcript.append({"from": "server", "message": message})
        if isinstance(message, dict) and message.get("method") == "loupe/events":
            self.events += message["params"]["events"]
        return message

    def receive_response(self, request_id):
        """Reads until the response to `request_id`, keeping notifications on the side."""
        while True:
            message = self.receive()
            if isinstance(message, list) or message.get("id", "absent") == request_id:
                return message

    def receive_events_until(self, predicate):
        while not any(predicate(e) for e in self.events):
            self.receive()
        return self.events


def capture(binary, report, session_file=None):
    s = StdioSession(binary)
    req = lambda i, method, params=None: dict({"jsonrpc": "2.0", "id": i, "method": method}, **({"params": params} if params is not None else {}))
    note = lambda method, params=None: dict({"jsonrpc": "2.0", "method": method}, **({"params": params} if params is not None else {}))
    code = lambda m: (m.get("error") or {}).get("code")

    s.send(req(1, "loupe/stores", {}))
    report.expect(code(s.receive_response(1)) == -32002, "a request before initialize gets -32002")
    s.send(req(2, "initialize", {"clientInfo": {"name": "validate.py", "version": "1"}, "protocolVersion": "1"}))
    init = s.receive_response(2)
    report.expect(init.get("result", {}).get("protocolVersion") == "1", "initialize answers protocolVersion 1")
    s.send(note("initialized", {}))
    s.send(req(3, "loupe/subscribe", {"filter": {"kinds": ["*"]}, "history": True}))
    report.expect("history" in s.receive_response(3).get("result", {}), "subscribe answers {history}")
    s.send(req(4, "loupe/mark", {"label": "probe:burst 2"}))
    s.receive_response(4)
    events = s.receive_events_until(lambda e: e.get("label", "").startswith("probe:burst-done"))
    kinds = {e["kind"] for e in events}
    report.expect({"session.started", "store.created", "action.received", "state.changed", "mark"} <= kinds, f"events of every probe kind arrive (got {sorted(kinds)})")
    s.send(req("five", "loupe/stores"))
    s.receive_response("five")
    s.send(req(6, "loupe/state", {"store": "Probe#1"}))
    s.receive_response(6)
    s.send(req(7, "loupe/state", {"store": "Probe#1", "path": "items[id: 1].title"}))
    report.expect(s.receive_response(7).get("result", {}).get("state") == "milk", "state with a path")
    s.send(req(8, "loupe/state", {"store": "Nope"}))
    report.expect(code(s.receive_response(8)) == -32602, "unknown store is -32602")
    s.send(req(9, "loupe/state", {"store": "Probe#1", "path": "items[["}))
    report.expect(code(s.receive_response(9)) == -32602, "bad path is -32602")
    s.send(req(10, "no/such/method", {}), invalid=True)
    report.expect(code(s.receive_response(10)) == -32601, "unknown method is -32601")
    s.send(req(11, "loupe/mark", {"label": 3}), invalid=True)
    report.expect(code(s.receive_response(11)) == -32602, "bad params are -32602")
    s.send_raw(b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')
    s.transcript.append({"from": "client", "raw": '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]'})
    report.expect(code(s.receive_response(None)) == -32700, "invalid JSON is -32700")
    s.send({"jsonrpc": "2.0", "method": 1, "params": "bar"}, invalid=True)
    report.expect(code(s.receive_response(None)) == -32600, "invalid request is -32600")
    s.send([], invalid=True)
    report.expect(code(s.receive_response(None)) == -32600, "empty batch is one -32600")
    s.send([req(12, "loupe/stores"), note("loupe/whatever"), {"foo": "boo"}, req(13, "nope")], invalid=True)
    batch = s.receive_response("batch")
    report.expect(isinstance(batch, list) and len(batch) == 3, "a mixed batch is answered with one array of 3")
    s.send(note("$/cancelRequest", {"id": 12}))
    s.send(req(16, "loupe/send", {"store": "Probe#1", "action": "refresh"}))
    report.expect(code(s.receive_response(16)) == -32004, "loupe/send without LOUPE_CONTROL is -32004")
    s.send(req(17, "loupe/setState", {"store": "Probe#1", "state": {}}))
    report.expect(code(s.receive_response(17)) == -32004, "loupe/setState without LOUPE_CONTROL is -32004")
    s.send(req(14, "loupe/unsubscribe", {}))
    s.receive_response(14)
    s.send(req(15, "shutdown"))
    s.receive_response(15)
    s.send(req(16, "loupe/stores"))
    report.expect(code(s.receive_response(16)) == -32600, "after shutdown requests get -32600")
    s.send(note("exit"))
    try:
        s.receive()
        report.failures.append("the server kept talking after exit")
    except EOFError:
        report.passed += 1
    s.process.stdin.close()
    s.process.kill()
    s.process.wait()

    pending = {}
    for i, entry in enumerate(s.transcript):
        where = f"capture message {i + 1}"
        if entry["from"] == "server":
            validate_server_message(report, entry["message"], pending, where)
        elif "message" in entry and entry["message"] != [] and isinstance(entry["message"], (dict, list)):
            try:
                validate_client_message(Report(), entry["message"], pending, where)  # invalid ones are on purpose
            except Exception:
                pass
    if session_file:
        with open(session_file, "w") as f:
            for entry in s.transcript:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------- documentation

def validate_docs(report):
    files = glob.glob(os.path.join(ROOT, "*.md")) + [os.path.join(os.path.dirname(ROOT), "README.md")]
    pattern = re.compile(r"<!--\s*schema:\s*(\S+)\s*-->\s*```json\n(.*?)```", re.S)
    examples = 0
    for path in files:
        if not os.path.exists(path):
            continue
        text = open(path).read()
        for match in pattern.finditer(text):
            ref, body = match.group(1), match.group(2)
            line = text[: match.start()].count("\n") + 1
            where = f"{os.path.relpath(path, os.path.dirname(ROOT))}:{line}"
            try:
                value = json.loads(body)
            except json.JSONDecodeError as error:
                report.failures.append(f"{where}: example is not JSON: {error}")
                continue
            examples += 1
            if ref.startswith("server-session"):
                validate_server_message(report, value, {json.dumps(value.get("id")): ref.split(":")[1]} if ":" in ref else {}, where)
            else:
                report.check(value, ref, where)
    report.expect(examples >= 20, f"the docs carry schema-checked examples (found {examples})")
    for path in sorted(glob.glob(os.path.join(ROOT, "sessions", "*.jsonl"))):
        pending = {}
        with open(path) as f:
            for number, line in enumerate(f, 1):
                entry = json.loads(line)
                where = f"{os.path.relpath(path, os.path.dirname(ROOT))}:{number}"
                if entry["from"] == "server":
                    validate_server_message(report, entry["message"], pending, where)
                elif entry.get("invalid"):
                    for item in entry["message"] if isinstance(entry["message"], list) else [entry["message"]]:
                        if isinstance(item, dict) and "id" in item and isinstance(item.get("method"), str):
                            pending[json.dumps(item["id"])] = item["method"]
                elif "message" in entry:
                    message = entry["message"]
                    if isinstance(message, dict) and isinstance(message.get("method"), str) and message.get("jsonrpc") == "2.0":
                        validate_client_message(report, message, pending, where)
                    elif isinstance(message, list):
                        for item in message:
                            if isinstance(item, dict) and isinstance(item.get("method"), str) and "jsonrpc" in item:
                                validate_client_message(report, item, pending, where)


def self_test(report):
    """Known-bad messages must be refused: proof that the schemas can fail."""
    bad = [
        ({"seq": 1, "time": 0, "kind": "mark"}, "events/event.json"),  # no label
        ({"seq": 0, "time": 0, "kind": "mark", "label": "x"}, "events/event.json"),  # seq starts at 1
        ({"seq": 1, "time": 0, "kind": "dropped", "count": "3"}, "events/event.json"),
        ({"seq": 1, "time": 0, "kind": "store.created", "store": "A#1", "type": "A", "identity": "i"}, "events/event.json"),
        ({"seq": 1, "time": 0, "kind": "state.changed", "store": "A", "cause": 1, "changes": [{"path": "x", "op": "set"}], "summary": ""}, "events/event.json"),
        ({"seq": 1, "time": 0, "kind": "mark", "label": "x", "extra": 1}, "events/event.json"),
        ({"history": -1}, "methods/loupe-subscribe.json#/$defs/result"),
        ({"store": "A", "seq": 1}, "methods/loupe-state.json#/$defs/result"),
        ({"jsonrpc": "2.0", "id": 1.5, "result": None}, "jsonrpc.json#/$defs/ServerMessage"),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}}, "jsonrpc.json#/$defs/ServerMessage"),
    ]
    for value, ref in bad:
        probe = Report()
        probe.check(value, ref, "self-test")
        report.expect(probe.failures, f"self-test: {json.dumps(value)} should not be a valid {ref}")
    good = Report()
    good.check({"seq": 9, "time": 1.5, "kind": "future.kind", "anything": [1]}, "events/event.json", "self-test")
    report.expect(not good.failures, "self-test: an unknown kind with a valid envelope is accepted")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--capture", metavar="BINARY")
    parser.add_argument("--write-session", metavar="FILE")
    parser.add_argument("--server-log", nargs="*", default=[])
    parser.add_argument("--docs", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    report = Report()
    if args.capture:
        capture(args.capture, report, args.write_session)
    for path in args.server_log:
        pending = {}
        with open(path) as f:
            for number, line in enumerate(f, 1):
                entry = json.loads(line)
                if entry["from"] == "client":
                    validate_client_message(report, entry["message"], pending, f"{path}:{number}")
                else:
                    validate_server_message(report, entry["message"], pending, f"{path}:{number}")
    if args.self_test:
        self_test(report)
    if args.docs:
        validate_docs(report)
    for failure in report.failures:
        print("FAIL", failure)
    print(f"protocol: {report.passed} passed, {len(report.failures)} failed")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
