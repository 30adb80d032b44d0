#!/usr/bin/env python3
"""`LOUPE_RECORD`'s queue against its byte budget (32 MB): peak RSS growth of a program that
records to a trace file, to a FIFO nobody reads (the disk "stalled"), and not at all.

The emitter (`loupe-bench-emit emit`) turns the inspector on from the environment and emits
N events as fast as it can: the typical mix, or state changes carrying a value of B bytes
(`--value-bytes`, 4096 by default here: large events are where an estimate of their size
could be wrong). It reports VmRSS before emitting and VmHWM after. Three set-ups, alternately,
three times each (once in smoke mode):

- none: no LOUPE_RECORD, no client (the inspector still keeps its history, 12 MB budget);
- file: LOUPE_RECORD to a file in the scratch directory (the writer keeps up, or nearly);
- stalled: LOUPE_RECORD to a FIFO that a reader opened and never reads, so the recorder's
  writer blocks on its first write and its queue fills to the budget.

The queue's real memory is the growth of a recording set-up minus the growth of `none`
(median over the repetitions); the budget holds when that is at most 32 MB. Output: JSON.
"""

import os
import subprocess

import benchlib

BUDGET_MB = 32


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events per run (default 300,000; smoke 20,000)")
    parser.add_argument("--value-bytes", type=int, default=4096, help="bytes of each state change's value (0: the typical mix)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each set-up (default 3; smoke 1)")


def run(args, directory, mode, events):
    report = os.path.join(directory, f"{mode}.json")
    env = dict(os.environ)
    for name in ("LOUPE", "LOUPE_RECORD"):
        env.pop(name, None)
    env["LOUPE_EXIT_TIMEOUT"] = "0"
    reader = None
    if mode == "file":
        env["LOUPE_RECORD"] = os.path.join(directory, "run.loupe")
    elif mode == "stalled":
        fifo = os.path.join(directory, "stalled.fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # opened, never read
        env["LOUPE_RECORD"] = fifo
    command = [args.emit, "emit", "--events", str(events), "--report", report]
    if args.value_bytes:
        command += ["--value-bytes", str(args.value_bytes)]
    if mode == "none":
        env["LOUPE"] = "off"
    try:
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        if reader is not None:
            os.close(reader)
    result = benchlib.read_json(report)
    growth = (result["rssPeakKB"] - result["rssBaseKB"]) / 1024
    benchlib.log(f"  {mode:>8}: growth {growth:6.1f} MB, peak {result['rssPeakKB'] / 1024:6.1f} MB, {result['seconds']:.2f} s")
    return growth


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 300_000)
    repetitions = args.repetitions or (1 if args.smoke else 3)
    growth = {"none": [], "file": [], "stalled": []}
    with benchlib.scratch_directory() as directory:
        for repetition in range(repetitions):
            order = ["none", "file", "stalled"] if repetition % 2 == 0 else ["stalled", "file", "none"]
            for mode in order:
                growth[mode].append(run(args, directory, mode, events))
    medians = {mode: benchlib.median(values) for mode, values in growth.items()}
    queue = {mode: medians[mode] - medians["none"] for mode in ("file", "stalled")}
    benchlib.emit_result({
        "events": events, "valueBytes": args.value_bytes, "repetitions": repetitions, "budgetMB": BUDGET_MB,
        "growthMB": medians, "queueMB": queue, "withinBudget": all(value <= BUDGET_MB for value in queue.values()),
    })


if __name__ == "__main__":
    main()
