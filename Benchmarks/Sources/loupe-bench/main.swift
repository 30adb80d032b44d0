import Foundation

// loupe-bench: measures Loupe side by side with what users would use instead, and prints a
// table (Markdown) of every row with its ratio, target and result. See BENCHMARKS.md.

let usage = """
  USAGE: loupe-bench [--smoke] [--filter PATTERN[,PATTERN...]] [--check] [--no-instructions] [--list]
         loupe-bench --run-side ID loupe|other ITERATIONS [--smoke]

  OPTIONS:
    --smoke          Small sizes and few repetitions: checks that every benchmark runs.
    --filter P,...   Only benchmarks whose id contains P (or matches the glob P).
    --check          Exit with status 1 when a target is not met (never with --smoke).
    --no-instructions
                     Skip counting instructions with callgrind (done when valgrind is
                     installed, except in smoke mode).
    --list           Print the benchmark ids and exit.
    --run-side       Run one side of a paired benchmark ITERATIONS times, untimed (for
                     valgrind --tool=callgrind: see scripts/callgrind.sh).
  """

var smoke = false
var check = false
var instructions = true
var patterns: [String] = []
var runSide: (id: String, side: String, iterations: Int)?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--smoke": smoke = true
  case "--check": check = true
  case "--no-instructions": instructions = false
  case "--filter":
    guard let value = arguments.next() else {
      FileHandle.standardError.write(Data("Error: --filter needs a value\n\(usage)\n".utf8))
      exit(2)
    }
    patterns += value.split(separator: ",").map(String.init)
  case "--run-side":
    guard let id = arguments.next(), let side = arguments.next(), side == "loupe" || side == "other",
      let iterations = arguments.next().flatMap({ Int($0) })
    else {
      FileHandle.standardError.write(Data("Error: --run-side needs ID loupe|other ITERATIONS\n\(usage)\n".utf8))
      exit(2)
    }
    runSide = (id, side, iterations)
  case "--list":
    for benchmark in Catalog.all { print("\(benchmark.id)\t\(benchmark.what)") }
    exit(0)
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    FileHandle.standardError.write(Data("Error: unknown argument '\(argument)'\n\(usage)\n".utf8))
    exit(2)
  }
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let context = BenchContext(
  smoke: smoke, plan: smoke ? .smoke : .full,
  repositoryRoot: Catalog.repositoryRoot(),
  binDirectory: executable.deletingLastPathComponent(),
  countsInstructions: instructions && !smoke && runSide == nil && Callgrind.isAvailable)

if let runSide {
  guard let benchmark = Catalog.all.first(where: { $0.id == runSide.id }), case .paired(let prepare) = benchmark.kind else {
    FileHandle.standardError.write(Data("Error: no paired benchmark '\(runSide.id)'\n".utf8))
    exit(2)
  }
  do {
    let pair = try prepare(context)
    let work = runSide.side == "loupe" ? pair.loupe : pair.other
    if runSide.iterations > 0 { work(runSide.iterations) }
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
  }
}

let selected = Catalog.all.filter { $0.isSelected(by: patterns) }
if selected.isEmpty {
  FileHandle.standardError.write(Data("Error: no benchmark matches \(patterns)\n".utf8))
  exit(2)
}

var rows: [Row] = []
for benchmark in selected {
  FileHandle.standardError.write(Data("running \(benchmark.id) …\n".utf8))
  let started = ContinuousClock.now
  do {
    rows += try benchmark.run(context)
  } catch {
    rows.append(Row(
      id: benchmark.id, what: benchmark.what, loupe: "-", other: "-", ratio: "-", target: "-", status: .failed("\(error)")))
  }
  FileHandle.standardError.write(Data("  done in \(started.duration(to: .now).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))\n".utf8))
}

if smoke {
  // A smoke run checks that everything runs; its small sizes judge nothing.
  for index in rows.indices where [.met, .notMet, .aimMet, .aimMissed, .reported].contains(rows[index].status) {
    rows[index].status = .ran
  }
}
print(TablePrinter.markdown(rows))
print()
print(TablePrinter.notes(rows))
if smoke { print("\n(smoke mode: small sizes and few repetitions; the ratios mean nothing)") }

let failed = rows.contains { if case .failed = $0.status { true } else { false } }
let missed = rows.contains { $0.status == .notMet }
exit(failed || (check && !smoke && missed) ? 1 : 0)
