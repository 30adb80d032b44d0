import Foundation

/// `loupe mcp` on a large trace (issue 17), measured by `Benchmarks/scripts/mcp_timeline.py`:
/// `loupe_timeline` answers within its budget well under a second on a 1M-event trace, and
/// the server's memory does not grow with the calls.
enum MCPBenchmarks {
  static let all: [Benchmark] = [timeline]

  /// "Well under a second" (issue 17).
  static let targetMilliseconds = 250.0

  static let timeline = Benchmark(id: "process.mcp", what: "loupe mcp: loupe_timeline on a 1M-event trace") { context in
    let result = try ProcessBenchmarks.runScript("mcp_timeline.py", context: context)
    let events = result["events"] as? Int ?? 0
    let timings = result["timelineMilliseconds"] as? [String: Double] ?? [:]
    let worst = timings.values.max() ?? .infinity
    let opened = result["rssOpenedMB"] as? Double ?? 0
    let after = result["rssAfterMB"] as? Double ?? 0
    let status: Row.Status = context.smoke ? .ran : (worst < targetMilliseconds ? .met : .notMet)
    let medians = timings.sorted { $0.key < $1.key }.map { "\($0.key) \(Format.number($0.value)) ms" }.joined(separator: ", ")
    return [
      Row(
        id: "process.mcp.timeline",
        what: "loupe mcp: loupe_timeline, 50 events of a \(Format.count(Double(events)))-event trace (slowest question, median)",
        loupe: "\(Format.number(worst)) ms", other: "-",
        ratio: "RSS \(Format.number(opened)) → \(Format.number(after)) MB over the calls",
        target: "< \(Format.number(targetMilliseconds)) ms", status: status,
        note: "medians: \(medians); opening (indexing) \(Format.number(result["openSeconds"] as? Double ?? 0)) s; "
          + "largest answer \(result["largestTextCharacters"] ?? 0) characters; peak RSS \(Format.number(result["peakRSSMB"] as? Double ?? 0)) MB")
    ]
  }
}
