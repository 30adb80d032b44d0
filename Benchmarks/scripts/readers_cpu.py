#!/usr/bin/env python3
"""The readers' CPU, two builds side by side on one trace: `show --format json` against
`grep -F`, `replay` (history: true, to a client that reads), and optionally `show` text
against jq.

On a machine shared with other work, wall times say more about the load than about loupe;
the CPU seconds (user + system) each process spends are steadier, and running both builds
alternately (ABAB…) in the same minutes makes their ratio fair. A trace of N events of the
typical mix (1,000,000 by default) is generated once with `--bin`'s emitter. Each command runs
`--repetitions` times per build, in alternating order; the medians are reported, with the
load average. Checks: both builds select the same lines as grep; both replays send every
event in order (as `replay_throughput.py` checks). Output: JSON.
"""

import os
import resource
import shutil
import subprocess

import benchlib
import replay_throughput

HERE = os.path.dirname(os.path.abspath(__file__))


def extra(parser):
    parser.add_argument("--other-bin", required=True, help="directory holding the other build's loupe (the 'before')")
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each command per build (default 3; smoke 1)")
    parser.add_argument("--text", action="store_true", help="also `show` text against jq (slow: tens of seconds a run)")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def show(command, out_path):
    before = children_cpu()
    with open(out_path, "wb") as out:
        status = subprocess.run(command, stdout=out, stderr=subprocess.DEVNULL).returncode
    if status not in (0, 5):  # jq: 5 for the header line
        benchlib.fail(f"{' '.join(command)} exited with {status}")
    return children_cpu() - before


def replay(loupe, trace, keep=None):
    before = children_cpu()
    process = subprocess.Popen([loupe, "replay", trace], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    process.stdin.write(replay_throughput.REQUESTS)
    process.stdin.close()
    replay_throughput.read_all(process, keep)
    if process.wait() != 0:
        benchlib.fail("loupe replay failed")
    return children_cpu() - before


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 3)
    builds = {"after": args.loupe, "before": os.path.join(args.other_bin, "loupe")}
    grep, jq = shutil.which("grep"), shutil.which("jq")
    results = {}
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        benchlib.log(f"  trace: {events:,} events, {os.path.getsize(trace) / 1e6:.0f} MB")
        for name, loupe in builds.items():
            chunks = []
            replay(loupe, trace, keep=chunks)
            replay_throughput.check(b"".join(chunks), events)

        def measure(label, commands):
            cpus = {name: [] for name in commands}
            outputs = {}
            for repetition in range(repetitions):
                order = list(commands) if repetition % 2 == 0 else list(reversed(commands))
                for name in order:
                    out = os.path.join(directory, f"{label}.{name}.out")
                    cpu = commands[name](out)
                    cpus[name].append(cpu)
                    outputs[name] = out
                benchlib.log(f"  {label} {repetition + 1}: " + ", ".join(f"{n} {cpus[n][-1]:.2f} s" for n in commands)
                             + f" (load {os.getloadavg()[0]:.1f})")
            return {name: benchlib.median(values) for name, values in cpus.items()}, outputs

        json_commands = {name: (lambda out, loupe=loupe: show([loupe, "show", trace, "--kind", "effect.*", "--format", "json"], out))
                         for name, loupe in builds.items()}
        json_commands["grep"] = lambda out: show([grep, "-F", '"kind":"effect.', trace], out)
        cpus, outputs = measure("json", json_commands)
        expected = open(outputs["grep"], "rb").read()
        for name in builds:
            if open(outputs[name], "rb").read() != expected:
                benchlib.fail(f"{name}: show --format json and grep -F selected different lines")
        results["json"] = {"cpuSeconds": cpus, "afterVsGrep": cpus["after"] / cpus["grep"],
                           "beforeVsGrep": cpus["before"] / cpus["grep"]}

        replay_commands = {name: (lambda out, loupe=loupe: replay(loupe, trace)) for name, loupe in builds.items()}
        cpus, _ = measure("replay", replay_commands)
        results["replay"] = {"cpuSeconds": cpus,
                             "eventsPerCPUSecond": {name: events / cpu for name, cpu in cpus.items()}}

        if args.text:
            text_commands = {name: (lambda out, loupe=loupe: show([loupe, "show", trace], out)) for name, loupe in builds.items()}
            text_commands["jq"] = lambda out: show([jq, "-r", "-f", os.path.join(HERE, "show_text.jq"), trace], out)
            cpus, outputs = measure("text", text_commands)
            if open(outputs["after"], "rb").read() != open(outputs["before"], "rb").read():
                benchlib.fail("the two builds printed different text")
            results["text"] = {"cpuSeconds": cpus, "afterVsJQ": cpus["jq"] / cpus["after"],
                               "beforeVsJQ": cpus["jq"] / cpus["before"]}
    benchlib.emit_result({"events": events, "repetitions": repetitions, "loadAverage": os.getloadavg(), **results})


if __name__ == "__main__":
    main()
