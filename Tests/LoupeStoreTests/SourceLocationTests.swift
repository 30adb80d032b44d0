import Foundation
import Loupe
import Testing

/// CONTRACT §9: which line each event's `source` names. The feature below marks its lines
/// with `// @name` comments; the tests find the marked line by reading this file, so moving
/// code around keeps them right.
@MainActor
@Suite struct SourceLocationTests {
  struct Ticker: Reducer {
    struct State: Equatable {
      var ticks = 0
      var echoes = 0
      var child: Child.State? = Child.State()
    }
    enum Action: Equatable {
      case start, stop, tick, echo, echoed, search, found, child(Child.Action)
    }
    enum CancelID { case timer, search }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .start:
          return .run { send in  // @run
            for await _ in send.clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer, cancelInFlight: true)  // @cancellable
        case .stop:
          return .cancel(id: CancelID.timer)  // @cancel
        case .tick:
          state.ticks += 1
          return .none
        case .echo:
          return .send(.echoed)  // @send-effect
        case .echoed:
          state.echoes += 1
          return .none
        case .search:
          return .send(.found).debounce(id: CancelID.search, for: .seconds(1))  // @debounce
        case .found, .child:
          return .none
        }
      }
      .ifLet(\.child, action: Action.child) { Child() }
    }
  }

  struct Child: Reducer {
    struct State: Equatable { var taps = 0 }
    enum Action: Equatable { case tap }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.taps += 1
      return .none
    }
  }

  /// The line of this file marked `// @name`.
  static func line(_ name: String) throws -> Int {
    let text = try String(contentsOfFile: "\(#filePath)", encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.hasSuffix("// @\(name)") }, "no line marked @\(name)")
    return index + 1
  }

  static func here(_ line: Int) -> CodeLocation {
    CodeLocation(file: "\(#fileID)", line: line, path: "\(#filePath)")
  }

  let bus = EventBus(program: "test")
  let recorder = EventRecorder()
  let clock = TestClock()

  init() { bus.attach(recorder) }

  func makeStore() -> Store<Ticker.State, Ticker.Action> {
    Store(initialState: Ticker.State(), bus: bus, clock: clock) { Ticker() }
  }

  func sources(of kind: String) -> [CodeLocation?] {
    recorder.events.filter { $0.kind == kind }.map { event in
      switch event.payload {
      case .actionReceived(let e): e.source
      case .effectStarted(let e): e.source
      case .warning(let e): e.source
      case .effectCancelled(let e): e.by?.source
      case .derivedRecomputed(let e): e.source
      default: nil
      }
    }
  }

  @Test func sendEffectAndCancellationLines() async throws {
    let store = makeStore()
    defer { store.invalidate() }
    store.send(.start); let sendLine = #line
    await clock.advance(by: .seconds(1))
    store.send(.start); let secondSendLine = #line
    store.send(.stop); let stopLine = #line

    let run = Self.here(try Self.line("run"))
    #expect(sources(of: "action.received") == [Self.here(sendLine), run, Self.here(secondSendLine), Self.here(stopLine)])
    // Both timers were created at the `.run`, although `.cancellable` was chained on the next line.
    #expect(sources(of: "effect.started") == [run, run])
    // The first timer was cancelled by the `.cancellable(id:cancelInFlight:)`, the second by `.cancel(id:)`.
    #expect(sources(of: "effect.cancelled") == [Self.here(try Self.line("cancellable")), Self.here(try Self.line("cancel"))])
  }

  @Test func sendEffectsAndDebounce() async throws {
    let store = makeStore()
    defer { store.invalidate() }
    store.send(.echo); let echoLine = #line
    store.send(.search)
    store.send(.search)
    await clock.advance(by: .seconds(1))

    let sendEffect = Self.here(try Self.line("send-effect"))
    let debounce = Self.here(try Self.line("debounce"))
    let received = recorder.events.compactMap { event -> String? in
      guard case .actionReceived(let e) = event.payload else { return nil }
      return "\(e.action.split(separator: ".").last!) \(e.source?.line ?? 0)"
    }
    let searchLines = recorder.events.compactMap { event -> Int? in
      guard case .actionReceived(let e) = event.payload, e.action.hasSuffix("search") else { return nil }
      return e.source?.line
    }
    #expect(received.prefix(2) == ["echo \(echoLine)", "echoed \(sendEffect.line)"])
    #expect(received.last == "found \(debounce.line)")
    #expect(searchLines.count == 2)
    // The debounced `.send` keeps its line; the pending one was cancelled by the `.debounce`.
    #expect(sources(of: "effect.started") == [sendEffect, debounce, debounce])
    #expect(sources(of: "effect.cancelled") == [debounce])
  }

  @Test func routedActionsCarryTheParentActionsSource() throws {
    let store = makeStore()
    defer { store.invalidate() }
    store.send(.child(.tap)); let parentLine = #line
    let child = store.scope(state: \.child, action: Ticker.Action.child)
    child?.send(.tap); let childLine = #line

    let received = recorder.events.compactMap { event -> (String, ActionReceived.Origin, CodeLocation?)? in
      guard case .actionReceived(let e) = event.payload else { return nil }
      return (e.store, e.origin, e.source)
    }
    #expect(received.count == 3)
    #expect(received[0].1 == .send && received[0].2 == Self.here(parentLine))
    #expect(received[1].1 == .parent && received[1].2 == Self.here(parentLine))
    #expect(received[2].1 == .send && received[2].2 == Self.here(childLine))
  }

  @Test func warningsAndDerivedValuesNameTheirLines() throws {
    let store = makeStore()
    let ticks = store.derived("ticks", select: \.ticks) { $0 * 2 }; let derivedLine = #line
    store.invalidate()
    store.send(.tick); let lateLine = #line
    #expect(ticks.value == 0)
    #expect(sources(of: "warning") == [Self.here(lateLine)])
    #expect(sources(of: "derived.recomputed") == [Self.here(derivedLine)])
  }

  /// `LOUPE_SOURCE_PATHS=off` and its programmatic equivalent leave `path` out.
  @Test func pathsCanBeLeftOut() throws {
    bus.includesSourcePaths = false
    let store = makeStore()
    defer { store.invalidate() }
    store.send(.start); let sendLine = #line
    let expected = CodeLocation(file: "\(#fileID)", line: sendLine)
    #expect(sources(of: "action.received") == [expected])
    #expect(sources(of: "effect.started") == [CodeLocation(file: "\(#fileID)", line: try Self.line("run"))])
    let json = recorder.events.first { $0.kind == ActionReceived.kind }!.jsonText
    #expect(json.hasSuffix(#""origin":"send","source":{"file":"LoupeStoreTests/SourceLocationTests.swift","line":\#(sendLine)},"shape":{"enums":[""]}}"#))
  }

  /// `EventBus.includesSourceLocations = false` leaves sources out of every event.
  @Test func sourcesCanBeLeftOut() throws {
    bus.includesSourceLocations = false
    let store = makeStore()
    store.send(.start)
    store.send(.stop)
    store.invalidate()
    store.send(.tick)
    #expect(sources(of: "action.received") == [nil, nil])
    #expect(sources(of: "effect.started") == [nil])
    #expect(sources(of: "effect.cancelled") == [nil])
    #expect(sources(of: "warning") == [nil])
    #expect(!recorder.events.contains { $0.jsonText.contains(#""source""#) })
  }
}
