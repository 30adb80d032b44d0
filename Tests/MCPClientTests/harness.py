"""A small async test runner and helpers for driving `loupe mcp` over real pipes.

The official MCP Python SDK (`mcp` on PyPI) is the client under test's counterpart: its
stdio client spawns `loupe mcp`, negotiates the protocol, validates every result against the
tool's published output schema. Raw pipes (RawServer) cover what the SDK will not send.
"""
import asyncio, json, os, subprocess, sys, time, traceback

from mcp import StdioServerParameters
from mcp.client import Client

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "LoupeCLITests", "Fixtures")


def bin_dir():
    if os.environ.get("LOUPE_BIN_DIR"):
        return os.environ["LOUPE_BIN_DIR"]
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.strip()


BIN = bin_dir()
LOUPE = os.path.join(BIN, "loupe")
EXAMPLES = os.path.join(BIN, "loupe-examples")

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not running: look at its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def wait_until(condition, timeout=20.0):
    """A failure guard for something another process does; polls, never asserts on speed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def client(mode="auto", env=None):
    """The official SDK's client, spawning `loupe mcp` over stdio."""
    return Client(StdioServerParameters(command=LOUPE, args=["mcp"], env=env), mode=mode, cache=None)


async def call(c, name, **arguments):
    result = await c.call_tool(name, arguments)
    text = result.content[0].text
    return result, text


async def ok(c, name, **arguments):
    result, text = await call(c, name, **arguments)
    check(not result.is_error, f"{name} failed: {text}")
    check(result.structured_content is not None, f"{name}: no structuredContent")
    return result.structured_content, text


async def error(c, name, code, **arguments):
    result, text = await call(c, name, **arguments)
    check(result.is_error, f"{name} should have failed with {code}: {text}")
    check(text.startswith(f"Error ({code}):"), f"{name}: expected error {code}, got: {text}")
    return text


class RawServer:
    """`loupe mcp` on raw pipes: write lines, read answers by id."""

    def __init__(self):
        self.process = subprocess.Popen([LOUPE, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.pending = []

    def send_line(self, text):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def send(self, message):
        self.send_line(json.dumps(message))

    def read(self):
        line = self.process.stdout.readline()
        check(line, "loupe mcp closed its output")
        return json.loads(line)

    def request(self, id, method, params=None):
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.read()

    def initialize(self, version="2025-11-25"):
        answer = self.request(0, "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self):
        self.process.stdin.close()
        status = self.process.wait(timeout=30)
        stderr = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return status, stderr


def run_all():
    passed = failed = 0
    only = sys.argv[1:]
    for fn in TESTS:
        if only and fn.__name__ not in only:
            continue
        start = time.monotonic()
        try:
            result = fn()
            if asyncio.iscoroutine(result):
                asyncio.run(asyncio.wait_for(result, timeout=120))
            passed += 1
            print(f"PASS {fn.__name__} ({time.monotonic() - start:.1f}s)", flush=True)
        except BaseException as error:  # noqa: BLE001 - report every failure, go on
            failed += 1
            print(f"FAIL {fn.__name__}: {error!r}", flush=True)
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
