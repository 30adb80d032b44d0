#!/usr/bin/env python3
"""Peak memory of a live `loupe mcp` and `loupe dap` session, per million events (issue 33 item 17).

The program is `record_ingest.py --serve FEED` (answers Loupe's handshake, then sends the
feed's `loupe/events` notifications as fast as the pipe takes them, then exits): the events
are the body of `Tests/LoupeCLITests/Fixtures/pages.loupe` repeated with new seqs, so a
session of any length has the mix of a real small program. `loupe mcp` opens it with
`loupe_open {program}`; `loupe dap` with `launch {program}` then `configurationDone`. Once
the program has ended and every event is in (the loupe process's memory has not moved for
two seconds), the loupe process is ended and its peak RSS (`ru_maxrss`) read, and its RSS then
(settled: what it keeps once a burst's backlog is gone); a loupe that
ended by itself first (issue 33 item 16: `loupe dap` under a burst) is reported as such.

Run: python3 Benchmarks/scripts/live_memory.py LOUPE_BINARY 500000 2000000
"""
import json, os, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from record_feed import frame, read_frame  # noqa: E402

FIXTURE = os.path.join(ROOT, "Tests/LoupeCLITests/Fixtures/pages.loupe")
SHIFTED = ("seq", "cause", "by")


def make_feed(path, events):
    with open(FIXTURE) as handle:
        handle.readline()
        body = [json.loads(line) for line in handle if line.strip()][1:]  # no second session.started
    span = max(e["seq"] for e in body)
    written, batch, round_ = 0, [], 0
    with open(path, "wb") as out:
        while written < events:
            for event in body:
                if written == events:
                    break
                e = dict(event)
                for key in SHIFTED:
                    if isinstance(e.get(key), int):
                        e[key] += round_ * span
                batch.append(json.dumps(e, separators=(",", ":")).encode())
                written += 1
                if len(batch) == 1000:
                    out.write(frame(b'{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[' + b",".join(batch) + b"]}}"))
                    batch = []
            round_ += 1
        if batch:
            out.write(frame(b'{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[' + b",".join(batch) + b"]}}"))


def status(pid, field):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def settle(process, program_done):
    """Waits until the program has ended and the loupe process's RSS has not moved for 2 s (or
    loupe has exited), ends loupe, and returns its peak RSS in KB (`ru_maxrss`, which a process
    that ended by itself still has), whether it was still running, and its RSS once settled
    (what it keeps, without a burst's transient peak; 0 when it ended by itself)."""
    last, still = -1, 0
    running = True
    while True:
        time.sleep(0.5)
        pid, _, usage = os.wait4(process.pid, os.WNOHANG)
        if pid == process.pid:
            running = False
            break
        try:
            rss = status(process.pid, "VmRSS")
        except OSError:
            continue
        still = still + 1 if (rss == last and program_done()) else 0
        last = rss
        if still >= 4:
            break
    if running:
        process.kill()
        _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here
    return usage.ru_maxrss, running, max(last, 0)


def program(feed):
    return [sys.executable, os.path.abspath(__file__), "--serve", feed]


def serve(feed):
    """The program: answers the handshake as Loupe's inspector does, sends the feed, ends."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        message = read_frame(stdin)
        if message is None:
            return
        if isinstance(message, (bytes, bytearray)):
            message = json.loads(message)
        method, ident = message.get("method"), message.get("id")
        if method == "initialize":
            result = {"protocolVersion": "1", "serverInfo": {"name": "loupe", "version": "0.1.0"},
                      "process": {"pid": os.getpid(), "name": "live-memory"},
                      "capabilities": {"eventKinds": [], "methods": ["initialize", "loupe/subscribe"]}}
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()))
            stdout.flush()
        elif method == "loupe/subscribe":
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": {"history": 0}}).encode()))
            with open(feed, "rb") as handle:
                while chunk := handle.read(1 << 20):
                    stdout.write(chunk)
            stdout.flush()
            return
        elif ident is not None:
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": None}).encode()))
            stdout.flush()


def mcp(loupe, feed):
    process = subprocess.Popen([loupe, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL if os.environ.get("QUIET") else None)
    def send(message):
        process.stdin.write((json.dumps(message) + "\n").encode()); process.stdin.flush()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
    process.stdout.readline()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    command = program(feed)
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "loupe_open", "arguments": {"program": command[0], "args": command[1:]}}})
    answer = json.loads(process.stdout.readline())
    if answer["result"].get("isError"):
        sys.exit(answer["result"]["content"][0]["text"])
    pid = answer["result"]["structuredContent"]["pid"]
    return settle(process, lambda: not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split(")")[1].split()[0] == "Z")


def dap(loupe, feed):
    process = subprocess.Popen([loupe, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    done = threading.Event()
    def read():  # drain the adapter's output (a console line per event) and watch for the end
        stream = process.stdout
        while True:
            header = stream.readline()
            if not header:
                return
            if header.startswith(b"Content-Length:"):
                length = int(header.split(b":")[1])
                stream.readline()
                body = stream.read(length)
                if b'"event":"terminated"' in body or b'"event":"exited"' in body:
                    done.set()
    threading.Thread(target=read, daemon=True).start()
    seq = 0
    def send(command, arguments):
        nonlocal seq
        seq += 1
        body = json.dumps({"seq": seq, "type": "request", "command": command, "arguments": arguments}).encode()
        process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); process.stdin.flush()
    send("initialize", {"adapterID": "loupe"})
    command = program(feed)
    send("launch", {"program": command[0], "args": command[1:]})
    send("configurationDone", {})
    return settle(process, done.is_set)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        return serve(sys.argv[2])
    fronts = os.environ.get("FRONTS", "mcp,dap").split(",")
    loupe, counts = sys.argv[1], [int(n) for n in sys.argv[2:]]
    with tempfile.TemporaryDirectory() as directory:
        for count in counts:
            feed = os.path.join(directory, f"feed-{count}.bin")
            make_feed(feed, count)
            for name, run in (("mcp", mcp), ("dap", dap)):
                if name not in fronts:
                    continue
                peak, running, settled = run(loupe, feed)
                print(json.dumps({"front": name, "events": count, "peakMB": round(peak / 1024, 1),
                                  "settledMB": round(settled / 1024, 1), "endedByItself": not running}), flush=True)


if __name__ == "__main__":
    main()
