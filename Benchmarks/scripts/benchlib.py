"""Helpers shared by the whole-process benchmark scripts (Python 3 standard library only).

Each script measures a whole-process comparison, prints a human summary on stderr and one
JSON object on stdout, which `loupe-bench` turns into rows of its table.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def arguments(description, extra=None):
    parser = argparse.ArgumentParser(description=description)
    here = os.path.dirname(os.path.abspath(__file__))
    default_bin = os.path.join(here, "..", ".build", "release")
    parser.add_argument("--bin", default=os.environ.get("LOUPE_BENCH_BIN_DIR", default_bin),
                        help="directory holding loupe and loupe-bench-emit (default: Benchmarks/.build/release)")
    parser.add_argument("--smoke", action="store_true", help="small sizes, one repetition: checks that it runs")
    if extra:
        extra(parser)
    args = parser.parse_args()
    args.loupe = os.path.join(args.bin, "loupe")
    args.emit = os.path.join(args.bin, "loupe-bench-emit")
    for path in (args.loupe, args.emit):
        if not os.access(path, os.X_OK):
            fail(f"{path} is missing: build it with "
                 "swift build -c release --package-path Benchmarks --product loupe-bench")
    return args


def log(message):
    print(message, file=sys.stderr, flush=True)


def fail(message):
    """Ends the script with a JSON error that loupe-bench shows as a failed row."""
    print(json.dumps({"error": message}))
    log(f"error: {message}")
    sys.exit(1)


def emit_result(result):
    print(json.dumps(result))


def run_timed(command, stdin=None, stdout=subprocess.DEVNULL, env=None, check=True):
    """Runs `command`; returns (wall seconds, completed process)."""
    start = time.perf_counter()
    completed = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - start
    if check and completed.returncode != 0:
        fail(f"{' '.join(command)} exited with {completed.returncode}: {completed.stderr.decode(errors='replace')[-500:]}")
    return elapsed, completed


def median(values):
    return statistics.median(values)


def scratch_directory():
    return tempfile.TemporaryDirectory(prefix="loupe-bench-")


def read_json(path):
    with open(path) as handle:
        return json.load(handle)


def trace_summary(path):
    """(events, dropped events, kinds seen) of a trace file, header excluded."""
    events = 0
    dropped = 0
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            events += 1
            if b'"kind":"dropped"' in line:
                dropped += json.loads(line).get("count", 0)
    return events, dropped


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model}
