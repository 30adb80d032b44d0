#!/usr/bin/env python3
"""CPU that `loupe record` itself spends per event recorded, two builds side by side.

`loupe record FILE -- loupe-bench-emit emit --events N --rate R` (LOUPE=stdio), for the
`loupe` in `--bin` and the one in `--other-bin`, alternately (ABAB…), `--repetitions` times
each. The CPU is loupe's own (user + system from /proc/PID/stat, read once the process has
exited and before it is reaped), not the emitter's: on a shared machine the emitter's rate is
what the load allows, and what this measures is the recording side's cost. Each run's trace is
checked: every event there, none dropped (else the run is reported, not counted).
Output: JSON with each build's median microseconds of CPU per event and their ratio.
"""

import os
import subprocess

import benchlib


def extra(parser):
    parser.add_argument("--other-bin", required=True, help="directory holding the other build's loupe")
    parser.add_argument("--events", type=int, default=None, help="events per run (default 500,000; smoke 20,000)")
    parser.add_argument("--rate", type=int, default=100_000, help="events per second asked of the emitter")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each build (default 3; smoke 1)")


def own_cpu_seconds(command):
    """Runs `command`; its own user + system CPU seconds (not its children's) and exit status."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped
    with open(f"/proc/{process.pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15)
    return cpu, process.wait()


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 500_000)
    repetitions = args.repetitions or (1 if args.smoke else 3)
    builds = {"bin": args.loupe, "other": os.path.join(args.other_bin, "loupe")}
    cpus = {name: [] for name in builds}
    runs = []
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "run.loupe")
        for repetition in range(repetitions):
            for name in (("bin", "other") if repetition % 2 == 0 else ("other", "bin")):
                command = [builds[name], "record", trace, "--", args.emit, "emit", "--events", str(events),
                           "--rate", str(args.rate)]
                cpu, status = own_cpu_seconds(command)
                recorded, dropped = benchlib.trace_summary(trace)
                ok = status == 0 and dropped == 0 and recorded >= events
                runs.append({"build": name, "cpuSeconds": cpu, "recorded": recorded, "dropped": dropped, "ok": ok})
                benchlib.log(f"  {name}: {cpu:.2f} s CPU, {recorded:,} recorded, {dropped:,} dropped")
                if ok:
                    cpus[name].append(cpu / events * 1e6)
    medians = {name: (benchlib.median(values) if values else None) for name, values in cpus.items()}
    benchlib.emit_result({
        "events": events,
        "rate": args.rate,
        "microsecondsPerEvent": medians,
        "ratio": (medians["other"] / medians["bin"]) if medians["bin"] and medians["other"] else None,
        "loadAverage": os.getloadavg(),
        "runs": runs,
    })


if __name__ == "__main__":
    main()
