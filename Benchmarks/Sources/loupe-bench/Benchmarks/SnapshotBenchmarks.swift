import Foundation
import Loupe

/// What a `state.snapshot` (CONTRACT §10) costs the program: a recorded send on a to-do list
/// of 5,000 identified rows (id, title, done; one row toggled per action) that triggers a
/// snapshot, against the same recorded send that does not. Every send of the Loupe side takes
/// a snapshot (`SnapshotPolicy(actions: 1)`); the other side takes none after the first
/// (`actions: 0, bytes: 0`). With the default policy (every 1,000 actions) one send in 1,000
/// pays the difference.
///
/// Two rows: the default caps, under which a snapshot renders the first 1,000 rows and is
/// marked `truncated` (`maxCollectionCount`), and the caps raised so that it holds all 5,000.
/// Judged by instructions (callgrind), the trace writer's thread counted too.
enum SnapshotBenchmarks {
  static var all: [Benchmark] { [triggering(fullRendering: false), triggering(fullRendering: true)] }

  static func triggering(fullRendering: Bool) -> Benchmark {
    let id = fullRendering ? "snapshot.rows.full" : "snapshot.rows"
    let what = "recorded send that takes a snapshot of 5,000 to-do rows vs one that does not"
      + (fullRendering ? " (collection cap raised: all rows rendered)" : " (default caps: 1,000 rows rendered)")
    return Benchmark(id: id, what: what, pair: { context in
      let count = context.smoke ? 100 : 5_000
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-snapshots-\(getpid())")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let snapshotting = try recording(
        count: count, policy: SnapshotPolicy(actions: 1), fullRendering: fullRendering,
        path: directory.appendingPathComponent("every.loupe").path)
      let plain = try recording(
        count: count, policy: SnapshotPolicy(actions: 0, bytes: 0), fullRendering: fullRendering,
        path: directory.appendingPathComponent("none.loupe").path)
      return Pair(
        loupe: RowsSendBenchmarks.sendLoop(snapshotting.store, count: count),
        other: RowsSendBenchmarks.sendLoop(plain.store, count: count),
        rows: { comparison in
          defer { try? FileManager.default.removeItem(at: directory) }
          let every = try snapshotting.finish()
          let none = try plain.finish()
          let snapshots = every.filter { $0.contains("\"kind\":\"state.snapshot\"") }
          let actions = every.filter { $0.contains("\"kind\":\"action.received\"") }.count
          guard snapshots.count == actions + 1 else {
            throw BenchmarkError("\(snapshots.count) snapshots for \(actions) actions: one per action expected, and the first")
          }
          guard none.filter({ $0.contains("\"kind\":\"state.snapshot\"") }).count == 1 else {
            throw BenchmarkError("the side without snapshots has more than its first")
          }
          let truncated = snapshots.last?.contains("\"truncated\":true") ?? false
          guard truncated == (!fullRendering && count > 1_000) else {
            throw BenchmarkError("a snapshot's truncated flag is \(truncated)")
          }
          let bytes = snapshots.last.map { $0.utf8.count } ?? 0
          return [.timed(
            id, what, comparison, target: .reference,
            note: "\(actions) snapshots recorded, none dropped; one is \(Format.count(Double(bytes))) bytes of JSON"
              + (truncated ? ", truncated" : ""),
            judgeByInstructions: true)]
        })
    })
  }

  /// A store of `count` rows on a bus of its own, recorded to `path`.
  @MainActor static func recording(count: Int, policy: SnapshotPolicy, fullRendering: Bool, path: String) throws -> Recording {
    let bus = EventBus(program: "loupe-bench")
    bus.snapshotPolicy = policy
    if fullRendering { bus.renderOptions.maxCollectionCount = 10_000 }
    let inspector = Inspector(bus: bus)
    var configuration = inspector.configuration
    configuration.recordQueueCapacity = 1 << 22  // measure the recording, not the dropping
    configuration.recordQueueByteLimit = .max
    inspector.configuration = configuration
    try inspector.start(.record(path))
    let store = Store(initialState: RowsSendBenchmarks.state(count), bus: bus) { RowsSendBenchmarks.RowsFeature() }
    return Recording(store: store, inspector: inspector, path: path)
  }

  @MainActor struct Recording {
    let store: Store<RowsSendBenchmarks.RowsFeature.State, RowsSendBenchmarks.RowsFeature.Action>
    let inspector: Inspector
    let path: String

    /// Flushes the trace and returns its event lines (checked for drops).
    func finish() throws -> [Substring] {
      inspector.flush(timeout: .seconds(300))
      inspector.stop()
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
      guard !lines.contains(where: { $0.contains("\"kind\":\"dropped\"") }) else {
        throw BenchmarkError("the recording dropped events")
      }
      return Array(lines)
    }
  }
}
