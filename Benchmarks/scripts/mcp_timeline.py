#!/usr/bin/env python3
"""`loupe mcp`: loupe_timeline on a 1M-event trace, within its answer budget, memory flat.

A trace of N events of the typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated and opened with loupe_open (the time to index it is reported). Then loupe_timeline
is called R times (default 20; smoke 3) for each of five questions an agent asks — the first
page, a page from the middle (`since`), the last page, effects only from the middle
(`kinds: ["effect.*"]`), and one store's actions from the middle (`stores`, `kinds`) — and
the time from writing the request to reading its answer is measured. Every answer must stay
within the budget (50 events, at most 8,000 characters of text). Resident memory of `loupe
mcp` is read after opening and after all the calls: it must stay flat (the answers read the
trace by offset; nothing grows per call). Output: JSON with medians (milliseconds) and memory.
"""

import json
import subprocess
import time

import benchlib


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--calls", type=int, default=None, help="calls of each question (default 20; smoke 3)")


class Server:
    def __init__(self, loupe):
        self.proc = subprocess.Popen([loupe, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench"}})

    def request(self, method, params):
        self.id += 1
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}) + "\n").encode())
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            benchlib.fail(f"{method}: {answer['error']}")
        return answer["result"]

    def call(self, tool, arguments):
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            benchlib.fail(f"{tool}: {result['content'][0]['text']}")
        return result

    def memory_mb(self, field):
        with open(f"/proc/{self.proc.pid}/status") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(60)


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    calls = args.calls or (3 if args.smoke else 20)
    with benchlib.scratch_directory() as directory:
        trace = f"{directory}/mix.loupe"
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        server = Server(args.loupe)
        start = time.perf_counter()
        opened = server.call("loupe_open", {"trace": trace})["structuredContent"]
        open_seconds = time.perf_counter() - start
        session, last = opened["session"], opened["lastSeq"]
        benchlib.log(f"  opened {opened['events']:,} events in {open_seconds:.2f} s")
        store = server.call("loupe_stores", {"session": session, "at": last // 2})["structuredContent"]["stores"]
        some_store = store[-1]["id"] if store else "*"
        rss_opened = server.memory_mb("VmRSS")
        questions = {
            "first page": {},
            "middle page": {"since": last // 2},
            "last page": {"since": max(0, last - 49)},
            "effects from the middle": {"since": last // 2, "kinds": ["effect.*"]},
            "one store's actions from the middle": {"since": last // 2, "stores": [some_store], "kinds": ["action.received"]},
        }
        medians, worst_text = {}, 0
        for name, arguments in questions.items():
            times = []
            for _ in range(calls):
                begin = time.perf_counter()
                result = server.call("loupe_timeline", {"session": session, **arguments})
                times.append((time.perf_counter() - begin) * 1000)
                text = result["content"][0]["text"]
                shown = result["structuredContent"]["shown"]
                worst_text = max(worst_text, len(text))
                if shown > 50 or len(text) > 8000:
                    benchlib.fail(f"{name}: {shown} events, {len(text)} characters: over the budget")
            medians[name] = benchlib.median(times)
            benchlib.log(f"  {name}: median {medians[name]:.1f} ms, max {max(times):.1f} ms ({shown} events shown)")
        rss_after = server.memory_mb("VmRSS")
        peak = server.memory_mb("VmHWM")
        server.close()
        benchlib.emit_result({
            "events": events, "calls": calls, "openSeconds": open_seconds, "timelineMilliseconds": medians,
            "largestTextCharacters": worst_text, "rssOpenedMB": rss_opened, "rssAfterMB": rss_after, "peakRSSMB": peak,
        })


if __name__ == "__main__":
    main()
