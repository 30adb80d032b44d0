import Foundation

/// The whole-process comparisons, measured by the scripts in `Benchmarks/scripts/` (each
/// prints one JSON object), turned into rows here so the table has one place for targets.
enum ProcessBenchmarks {
  static let all: [Benchmark] = [record, showVersusJQ, stalledClient, stalledClientLargeEvents]

  static let recordTarget = 200_000.0

  static let record = Benchmark(id: "process.record", what: "program → loupe record over stdio") { context in
    let result = try runScript("record_throughput.py", context: context)
    let runs = result["targetRuns"] as? Int ?? 0
    let clean = result["targetRunsClean"] as? Int ?? 0
    let achieved = result["targetAchievedMedian"] as? Double ?? 0
    let best = result["best"] as? Double ?? 0
    // Paced to the target: the emitter may finish a hair late (sleep granularity).
    let met = runs > 0 && clean == runs && achieved >= recordTarget * 0.99
    let attempts = (result["runs"] as? [[String: Any]] ?? []).map { run -> String in
      let rate = Format.count(run["achieved"] as? Double ?? 0)
      let dropped = run["dropped"] as? Int ?? 0
      let missing = run["missing"] as? Int ?? 0
      return dropped == 0 && missing == 0 ? "\(rate)/s clean" : "\(rate)/s dropped \(Format.count(Double(dropped)))"
    }
    return [Row(
      id: "process.record", what: "program → loupe record over stdio, events/s with no drops",
      loupe: "\(Format.count(best))/s", other: "-", ratio: "\(clean)/\(runs) runs at \(Format.count(recordTarget))/s clean",
      target: Target.rate(recordTarget, unit: "events/s").text, status: met ? .met : .notMet,
      note: "best rate with no drops \(Format.count(best))/s; runs: \(attempts.joined(separator: ", "))")]
  }

  static let showVersusJQ = Benchmark(id: "process.show-jq", what: "loupe show --kind 'effect.*' --format json vs jq") {
    context in
    let result = try runScript("show_vs_jq.py", context: context)
    if let reason = result["skipped"] as? String {
      return [Row(
        id: "process.show-jq", what: "loupe show --kind 'effect.*' --format json vs jq", loupe: "-", other: "-", ratio: "-",
        target: Target.fasterBy(3).text, status: .skipped(reason))]
    }
    let loupe = (result["loupeSeconds"] as? Double ?? 0) * 1e9
    let jq = (result["jqSeconds"] as? Double ?? 0) * 1e9
    let speedup = result["speedup"] as? Double ?? 0
    let events = result["events"] as? Int ?? 0
    let range = result["speedupRange"] as? [Double] ?? [0, 0]
    return [Row(
      id: "process.show-jq",
      what: "loupe show --kind 'effect.*' --format json, \(Format.count(Double(events)))-event trace, vs jq",
      loupe: Format.time(loupe), other: Format.time(jq), ratio: "\(Format.factor(speedup)) faster",
      target: Target.fasterBy(3).text, status: speedup >= 3 ? .met : .notMet,
      note: "\(Format.count(Double(result["matched"] as? Int ?? 0))) events matched, "
        + "\((result["bytes"] as? Int ?? 0) / 1_000_000) MB trace; speedup range "
        + "\(Format.factor(range.first ?? 0))–\(Format.factor(range.last ?? 0)) over \(result["repetitions"] ?? 0) reps")]
  }

  static let stalledClient = Benchmark(id: "process.stalled", what: "stalled client, memory and speed") { context in
    try stalledRow(id: "process.stalled", result: runScript("stalled_client.py", context: context), unit: "events")
  }

  /// The same with large events: memory must stay bounded by bytes, not only by a count of
  /// events (a state change carrying a 4 kB value: a long list, a whole state at a new
  /// identity).
  static let stalledClientLargeEvents = Benchmark(id: "process.stalled-large", what: "stalled client, 4 kB events") {
    context in
    let arguments = ["--value-bytes", "4096", "--events", context.smoke ? "50000" : "1000000"]
    return try stalledRow(
      id: "process.stalled-large", result: runScript("stalled_client.py", context: context, arguments: arguments),
      unit: "state changes of 4 kB")
  }

  static func stalledRow(id: String, result: [String: Any], unit: String) throws -> [Row] {
    let events = result["events"] as? Int ?? 0
    let growth = result["stalledGrowthMB"] as? Double ?? .infinity
    let slowdown = result["slowdown"] as? Double ?? .infinity
    let stalled = (result["stalledSeconds"] as? Double ?? 0) * 1e9
    let alone = (result["aloneSeconds"] as? Double ?? 0) * 1e9
    var note = "RSS growth with no client \(Format.number(result["aloneGrowthMB"] as? Double ?? 0)) MB; "
      + "peak RSS with the stalled client \(Format.number(result["stalledPeakMB"] as? Double ?? 0)) MB; "
      + "times: median of \(result["repetitions"] ?? 0) runs each, alternating"
    var ratio = "\(Format.factor(slowdown)) time"
    // "Not slowed" is judged by instructions when callgrind counted them: a 10% bound is
    // below the timing noise of a shared 2-core machine.
    var judged = slowdown
    if let instructionRatio = result["instructionRatio"] as? Double, let stalledCount = result["stalledInstructions"] as? Double,
      let aloneCount = result["aloneInstructions"] as? Double
    {
      judged = instructionRatio
      ratio = String(format: "%.3f× (instructions), %@ (time)", instructionRatio, Format.factor(slowdown))
      note += "; callgrind: \(Format.count(stalledCount)) vs \(Format.count(aloneCount)) instructions per event"
    }
    return [Row(
      id: id, what: "stalled client, \(Format.count(Double(events))) \(unit) emitted: RSS growth, run time",
      loupe: "+\(Format.number(growth)) MB, \(Format.time(stalled))", other: "no client: \(Format.time(alone))",
      ratio: ratio, target: Target.memory(megabytes: 32, slowdown: 1.10).text,
      status: growth <= 32 && judged <= 1.10 ? .met : .notMet, note: note)]
  }

  /// Runs `Benchmarks/scripts/NAME` with this build's executables and returns its JSON.
  static func runScript(_ name: String, context: BenchContext, arguments: [String] = []) throws -> [String: Any] {
    let script = context.repositoryRoot.appendingPathComponent("Benchmarks/scripts/\(name)")
    let result = try ChildProcess.run(
      ["python3", script.path, "--bin", context.binDirectory.path] + (context.smoke ? ["--smoke"] : []) + arguments)
    guard let object = try? JSONSerialization.jsonObject(with: result.output) as? [String: Any] else {
      throw BenchmarkError("\(name) printed no result (status \(result.status))")
    }
    if let error = object["error"] as? String { throw BenchmarkError("\(name): \(error)") }
    guard result.status == 0 else { throw BenchmarkError("\(name) exited with \(result.status)") }
    return object
  }
}
