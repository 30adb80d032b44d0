import Foundation
import Loupe

/// `store.send` costs: idle (no sink: the price every program pays for being inspectable)
/// and recording a trace with diffs (the price of `LOUPE_RECORD`).
enum SendBenchmarks {
  static let all: [Benchmark] = [idle, recorded]

  static let actions: [CounterFeature.Action] = [.incrementTapped, .incrementTapped, .decrementTapped, .toggleTimerTapped]

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

  static let idle = Benchmark(id: "send.idle", what: "send with the inspector idle (no sink)", pair: { context in
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
      rows: { [.timed("send.idle", "send, inspector idle (no sink) vs a bare reducer call loop", $0, target: .atMost(1.10))] })
  })

  static let recorded = Benchmark(id: "send.recorded", what: "send recorded to a trace with diffs", pair: { context in
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("send.loupe").path

    let bus = EventBus(program: "loupe-bench")
    let inspector = Inspector(bus: bus)
    var configuration = inspector.configuration
    configuration.recordQueueCapacity = 1 << 22  // measure the recording, not the dropping
    inspector.configuration = configuration
    try inspector.start(.record(path))
    let recordedStore = Store(initialState: CounterFeature.State(), bus: bus) { CounterFeature() }
    let idle = idleStore()
    return Pair(
      loupe: sendLoop(recordedStore), other: sendLoop(idle),
      rows: { comparison in
        defer { try? FileManager.default.removeItem(at: directory) }
        inspector.flush(timeout: .seconds(60))
        inspector.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let dropped = lines.filter { $0.contains("\"kind\":\"dropped\"") }.count
        guard dropped == 0 else { throw BenchmarkError("the recording dropped events (\(dropped) dropped lines)") }
        guard lines.contains(where: { $0.contains("\"kind\":\"state.changed\"") }) else {
          throw BenchmarkError("the recording has no state.changed event")
        }
        return [.timed(
          "send.recorded", "send recorded to a trace with diffs vs the same store idle", comparison, target: .report(aim: 3),
          note: "\(lines.count - 1) events recorded, none dropped; the trace writer's thread shares the 2 cores")]
      })
  })
}
