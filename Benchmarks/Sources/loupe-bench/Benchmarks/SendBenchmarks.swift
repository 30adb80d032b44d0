import BenchFixtures
import Foundation
import Loupe

/// `store.send` costs: idle (no sink: the price every program pays for being inspectable)
/// and recording a trace with diffs (the price of `LOUPE_RECORD`).
enum SendBenchmarks {
  static let all: [Benchmark] = [idle, bare, recorded, sources]

  static let actions = CounterFeature.actions

  /// A store on a private bus with nothing attached.
  @MainActor static func idleStore() -> Store<CounterFeature.State, CounterFeature.Action> {
    Store(initialState: CounterFeature.State(), bus: EventBus(program: "loupe-bench")) { CounterFeature() }
  }

  @MainActor static func sendLoop(_ store: Store<CounterFeature.State, CounterFeature.Action>) -> Workload {
    { n in
      var index = 0
      for _ in 0..<n {
        store.send(actions[index])
        index = (index + 1) & 3
      }
    }
  }

  /// The target row: an idle store against the same store built with its instrumentation
  /// compiled out (two builds, so measured as processes by scripts/send_idle.py).
  static let idle = Benchmark(id: "send.idle", what: "send with the inspector idle (no sink)") { context in
    let result = try ProcessBenchmarks.runScript("send_idle.py", context: context)
    let what = "send, inspector idle (no sink) vs the same store with instrumentation compiled out"
    if result["smoke"] as? Bool == true {
      let ns = result["idleNs"] as? Double ?? 0
      return [Row(
        id: "send.idle", what: what, loupe: Format.time(ns), other: "-", ratio: "-", target: Target.atMost(1.10).text,
        status: .skipped("smoke mode builds no compiled-out variant"))]
    }
    let idle = result["idleNs"] as? Double ?? 0
    let compiledOut = result["compiledOutNs"] as? Double ?? 0
    let timeRatio = result["timeRatio"] as? Double ?? .infinity
    let range = result["timeRatioRange"] as? [Double] ?? [0, 0]
    var note = "time ratio range \(Format.factor(range.first ?? 0))–\(Format.factor(range.last ?? 0)) over "
      + "\(result["repetitions"] ?? 0) process pairs"
    // Judged by instructions when callgrind counted them: a 10% bound is below the timing
    // noise of a shared 2-core machine.
    var status: Row.Status = timeRatio <= 1.10 ? .met : .notMet
    var ratio = "\(Format.factor(timeRatio)) (time)"
    if let instructionRatio = result["instructionRatio"] as? Double,
      let idleInstructions = result["idleInstructions"] as? Double,
      let outInstructions = result["compiledOutInstructions"] as? Double
    {
      status = instructionRatio <= 1.10 ? .met : .notMet
      ratio = String(format: "%.3f× (instructions), %@ (time)", instructionRatio, Format.factor(timeRatio))
      note += "; callgrind: \(Format.count(idleInstructions)) vs \(Format.count(outInstructions)) instructions per send"
    }
    return [Row(
      id: "send.idle", what: what, loupe: Format.time(idle), other: Format.time(compiledOut), ratio: ratio,
      target: Target.atMost(1.10).text, status: status, note: note)]
  }

  /// For context: what the store's own machinery (queue, effects, observation) costs over
  /// calling the reducer directly; not instrumentation.
  static let bare = Benchmark(id: "send.bare", what: "send with the inspector idle vs a bare reducer call loop", pair: {
    context in
    let store = idleStore()
    let reducer = CounterFeature()
    var state = CounterFeature.State()
    return Pair(
      loupe: sendLoop(store),
      other: { n in
        var index = 0
        for _ in 0..<n {
          blackHole(reducer.reduce(into: &state, action: actions[index]))
          index = (index + 1) & 3
        }
      },
      rows: {
        [.timed(
          "send.bare", "send, inspector idle, vs the bare reducer called in a loop (store machinery, for context)", $0,
          target: .reference)]
      })
  })

  /// A store whose bus records to a trace file in `directory`; `finish` flushes and stops the
  /// recording and returns the trace's event lines, checked to be complete.
  @MainActor static func recordingStore(
    in directory: URL, name: String, configure: (EventBus) -> Void = { _ in }
  ) throws -> (store: Store<CounterFeature.State, CounterFeature.Action>, finish: () throws -> [Substring]) {
    let path = directory.appendingPathComponent(name).path
    let bus = EventBus(program: "loupe-bench")
    configure(bus)
    let inspector = Inspector(bus: bus)
    var configuration = inspector.configuration
    configuration.recordQueueCapacity = 1 << 22  // measure the recording, not the dropping
    configuration.recordQueueByteLimit = .max
    inspector.configuration = configuration
    try inspector.start(.record(path))
    let store = Store(initialState: CounterFeature.State(), bus: bus) { CounterFeature() }
    return (store, {
      inspector.flush(timeout: .seconds(60))
      inspector.stop()
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
      let dropped = lines.filter { $0.contains("\"kind\":\"dropped\"") }.count
      guard dropped == 0 else { throw BenchmarkError("the recording dropped events (\(dropped) dropped lines)") }
      guard lines.contains(where: { $0.contains("\"kind\":\"state.changed\"") }) else {
        throw BenchmarkError("the recording has no state.changed event")
      }
      return Array(lines)
    })
  }

  static func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// CONTRACT §9: what source locations add to a recorded send — the same recording with
  /// `includesSourceLocations` off on the other side. (Capturing them, three words passed
  /// along per send, is in both sides; its share of an idle send is in `send.idle`.)
  static let sources = Benchmark(id: "send.sources", what: "send recorded with source locations", pair: { context in
    let directory = try scratchDirectory()
    let withSources = try recordingStore(in: directory, name: "sources.loupe")
    let without = try recordingStore(in: directory, name: "plain.loupe") { $0.includesSourceLocations = false }
    return Pair(
      loupe: sendLoop(withSources.store), other: sendLoop(without.store),
      rows: { comparison in
        defer { try? FileManager.default.removeItem(at: directory) }
        let sourced = try withSources.finish()
        let plain = try without.finish()
        let actions = sourced.filter { $0.contains("\"kind\":\"action.received\"") }
        guard !actions.isEmpty, actions.allSatisfy({ $0.contains("\"source\":{\"file\":") }) else {
          throw BenchmarkError("the recording with sources has actions without a source")
        }
        guard !plain.contains(where: { $0.contains("\"source\"") }) else {
          throw BenchmarkError("the recording without sources has one")
        }
        let bytes = { (lines: [Substring]) in Double(lines.reduce(0) { $0 + $1.utf8.count + 1 }) / Double(max(lines.count, 1)) }
        return [.timed(
          "send.sources", "send recorded with source locations (file, line, path) vs the same recording without them",
          comparison, target: .reference,
          note: "\(sourced.count) and \(plain.count) events recorded, none dropped; "
            + String(format: "%.0f vs %.0f bytes per event line", bytes(sourced), bytes(plain)),
          judgeByInstructions: true)]
      })
  })

  static let recorded = Benchmark(id: "send.recorded", what: "send recorded to a trace with diffs", pair: { context in
    let directory = try scratchDirectory()
    let recording = try recordingStore(in: directory, name: "send.loupe")
    let idle = idleStore()
    return Pair(
      loupe: sendLoop(recording.store), other: sendLoop(idle),
      rows: { comparison in
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try recording.finish()
        return [.timed(
          "send.recorded", "send recorded to a trace with diffs vs the same store idle", comparison, target: .report(aim: 3),
          note: "\(lines.count) events recorded, none dropped; the trace writer's thread shares the 2 cores "
            + "(its instructions are counted too)",
          judgeByInstructions: true)]
      })
  })
}
