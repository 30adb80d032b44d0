import Foundation

/// `loupe dap` on large sessions (issue 14), measured by `Benchmarks/scripts/dap_steps.py`:
/// each stepping request through a 1M-event trace (request → `stopped`, and with what an
/// editor asks at every stop), and `variables` paging a 100,000-element array against asking
/// for all of it.
enum DAPBenchmarks {
  static let all: [Benchmark] = [steps]

  /// "Well under 100 ms a step" (issue 14).
  static let stepTargetMilliseconds = 100.0

  static let steps = Benchmark(id: "process.dap", what: "loupe dap: steps through a 1M-event trace, variables paging") { context in
    let result = try ProcessBenchmarks.runScript("dap_steps.py", context: context)
    let events = result["events"] as? Int ?? 0
    let timings = result["stepMilliseconds"] as? [String: Double] ?? [:]
    let worst = ["next", "stepIn", "stepOut", "stepBack", "goto"].compactMap { timings[$0] }.max() ?? .infinity
    let worstWithEditor = ["next", "stepIn", "stepOut", "stepBack", "goto"].compactMap { timings[$0 + " + editor requests"] }.max() ?? .infinity
    let opened = result["openSeconds"] as? Double ?? 0
    let openedCPU = result["openCPUSeconds"] as? Double ?? 0
    let rss = result["peakRSSMB"] as? Double ?? 0
    let page = result["pageMilliseconds"] as? Double ?? 0
    let whole = result["wholeMilliseconds"] as? Double ?? 0
    let elements = result["elements"] as? Int ?? 0
    let status: Row.Status = context.smoke ? .ran : (worst < stepTargetMilliseconds ? .met : .notMet)
    let medians = timings.filter { !$0.key.hasSuffix("(max)") }.sorted { $0.key < $1.key }
      .map { "\($0.key) \(Format.number($0.value)) ms" }.joined(separator: ", ")
    return [
      Row(
        id: "process.dap.step", what: "loupe dap: one step through a \(Format.count(Double(events)))-event trace (slowest kind, median)",
        loupe: "\(Format.number(worst)) ms", other: "-", ratio: "with editor requests \(Format.number(worstWithEditor)) ms",
        target: "< \(Format.number(stepTargetMilliseconds)) ms a step", status: status,
        note: "medians: \(medians); opening the trace (indexing it) \(Format.number(opened)) s wall, \(Format.number(openedCPU)) s CPU; peak RSS \(Format.number(rss)) MB"),
      Row(
        id: "process.dap.page", what: "loupe dap: variables, 100 of a \(Format.count(Double(elements)))-element array vs all of it",
        loupe: "\(Format.number(page)) ms", other: "\(Format.number(whole)) ms", ratio: "\(Format.factor(whole / max(page, 0.001))) less time",
        target: Target.reference.text, status: context.smoke ? .ran : .reported),
    ]
  }
}
