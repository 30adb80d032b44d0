import Foundation
import Loupe
import LoupeCore
import LoupeTesting
import Testing

/// A search as-you-type with a 300 ms debounce-like delay: what a replay must pace.
struct Finder: Reducer {
  struct State: Equatable, Codable {
    var query = ""
    var results: [String] = []
    var isSearching = false
  }
  enum Action: Equatable, Codable {
    case queryChanged(String)
    case searchResponse([String])
    case cleared
  }
  enum CancelID { case search }

  /// A deliberately changed reducer: results come back upper-cased.
  var mutant = false
  @Dependency(\.clock) var clock

  static let words = ["apple", "apricot", "banana", "blueberry", "cherry"]

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        state.isSearching = true
        let mutant = self.mutant
        return .run { [clock] send in
          try await clock.sleep(for: .milliseconds(300))
          let found = Self.words.filter { $0.hasPrefix(query) }
          await send(.searchResponse(mutant ? found.map { $0.uppercased() } : found))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResponse(let results):
        state.results = results
        state.isSearching = false
        return .none
      case .cleared:
        state = State()
        return .cancel(id: CancelID.search)
      }
    }
  }
}

/// `TestStore.replay`: a recording's user actions through a test store, paced by the test
/// clock, the state compared after each.
@MainActor
@Suite struct TestStoreReplayTests {
  /// A recording of someone typing "ap" (the first search cancelled by the second keystroke),
  /// reading the results, then clearing: written as a program would, with each event's time
  /// the moment on the clock it happened at.
  func record(in directory: URL) async throws -> String {
    let recorder = DiagnosticRecorder(snapshots: .default)
    let clock = TestClock()
    let store = recorder.store(initialState: Finder.State(), clock: clock) { Finder() }
    var times: [(through: Int, ms: Double)] = []
    func mark(_ ms: Double) { times.append((recorder.bus.lastSeq, ms)) }
    mark(0)
    store.send(.queryChanged("a"))
    await clock.advance(by: .milliseconds(100))
    mark(100)
    store.send(.queryChanged("ap"))
    await clock.advance(by: .milliseconds(400))
    mark(500)
    store.send(.cleared)
    mark(600)
    let path = directory.appendingPathComponent("finder.loupe").path
    let writer = try TraceWriter(path: path, header: TraceHeader(program: "finder", pid: 1, startedAt: "2026-11-28T00:00:00.000Z"))
    for var event in recorder.events {
      // The time of the step the event belongs to: after the mark before it.
      event.time = times.last { $0.through < event.seq }?.ms ?? 0
      try writer.append(event)
    }
    try writer.close()
    return path
  }

  @Test func theSameFeatureReplaysTheRecordingWithoutAFailure() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = try await record(in: directory)
    let store = TestStore(initialState: Finder.State()) { Finder() }
    await store.replay(trace)
    #expect(store.state == Finder.State())
    #expect(store.exhaustivity == .on)
  }

  @Test func aChangedReducerFailsAtTheFirstStateThatDiffers() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let trace = try await record(in: directory)
    let store = TestStore(initialState: Finder.State()) { Finder(mutant: true) }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.replay(trace)
    }
    #expect(failures == [CapturedFailure(message: """
      Replaying \(trace): before #15 Finder.Action.cleared (action 3 of 3), after what effects did since the previous action, the state differs from the recording's (at #14):
        results[0]: recorded "apple", now "APPLE"
      """, line: line)])
  }

  @Test func aRecordingThatCannotBeReplayedSaysWhy() async {
    let store = TestStore(initialState: Finder.State()) { Finder() }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.replay("/nonexistent/finder.loupe")
    }
    #expect(failures.map(\.line) == [line])
    #expect(failures.first?.message.hasPrefix("Cannot replay /nonexistent/finder.loupe: ") == true)
  }
}
