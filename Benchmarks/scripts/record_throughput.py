#!/usr/bin/env python3
"""Program -> `loupe record` over stdio: events per second with no drops.

`loupe record FILE -- loupe-bench-emit emit --events N --rate R` launches the emitter with
LOUPE=stdio; the emitter turns the inspector on as a program's first store would and emits N
events of a typical mix into its session, paced at R events per second. A client that does
not keep up loses events (its queue in the program is bounded) and the trace then holds
`dropped` events. A run counts when the trace holds every event and no `dropped` one.

The target rate (200,000/s) runs three times (once in smoke mode); then higher rates, once
each, until one drops events, to find the highest sustained rate. Output: JSON with the
runs and `best` (the highest achieved rate with no drops).
"""

import os

import benchlib


def extra(parser):
    parser.add_argument("--target", type=float, default=200_000, help="events per second to hold (default 200000)")
    parser.add_argument("--events", type=int, default=None, help="events per run (default 2,000,000; smoke 20,000)")


def run(args, directory, rate, events):
    trace = os.path.join(directory, "run.loupe")
    report = os.path.join(directory, "report.json")
    command = [args.loupe, "record", trace, "--", args.emit, "emit", "--events", str(events), "--rate", str(int(rate)),
               "--report", report]
    wall, _ = benchlib.run_timed(command)
    emitted = benchlib.read_json(report)
    recorded, dropped = benchlib.trace_summary(trace)
    # The trace also holds session.started and the emitter's final mark.
    missing = max(0, events - (recorded - 2))
    achieved = events / emitted["seconds"]
    result = {"rate": rate, "events": events, "emitSeconds": emitted["seconds"], "achieved": achieved,
              "wallSeconds": wall, "recorded": recorded, "dropped": dropped, "missing": missing,
              "ok": dropped == 0 and missing == 0}
    benchlib.log(f"  {int(rate):>9,}/s asked, {achieved:>11,.0f}/s emitted for {events:,} events: "
                 f"{dropped:,} dropped, {missing:,} missing, loupe record {wall:.2f} s wall")
    return result


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 2_000_000)
    runs = []
    with benchlib.scratch_directory() as directory:
        for _ in range(1 if args.smoke else 3):
            runs.append(run(args, directory, args.target, events))
        if not args.smoke:
            for factor in (1.5, 2, 3, 4, 6):
                result = run(args, directory, args.target * factor, events)
                runs.append(result)
                if not result["ok"]:
                    break
    at_target = [r for r in runs if r["rate"] == args.target]
    clean = [r for r in runs if r["ok"]]
    best = max((r["achieved"] for r in clean), default=0.0)
    benchlib.emit_result({
        "target": args.target,
        "targetRuns": len(at_target),
        "targetRunsClean": sum(1 for r in at_target if r["ok"]),
        "targetAchievedMedian": benchlib.median([r["achieved"] for r in at_target]),
        "best": best,
        "runs": runs,
    })


if __name__ == "__main__":
    main()
