import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// The packed index (``PackedColumns``, ``PositionList``, ``LineLocations``): a session long
/// enough to seal several blocks answers every question exactly as a walk over its events
/// does — with gaps in `seq`, hundreds of stores, causes thousands of events back,
/// consequences across block edges, and questions at the edges — from memory, from a growing
/// recording (questions asked between appends, while blocks seal) and from the finished file.
@Suite struct PackedIndexTests {
  /// A random session and what each event's cause is (a position), known as it is made.
  struct Session {
    var events: [Event] = []
    var causes: [Int?] = []
  }

  /// A generator that gives the same numbers on every platform (SplitMix64).
  struct Numbers: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func session(events count: Int, seed: UInt64) -> Session {
    var random = Numbers(state: seed)
    var session = Session()
    let stores = (0..<300).map { "Row#\($0)" }
    var seq = 0
    var actions: [(seq: Int, position: Int, store: String)] = []
    var running: [(effect: Int, position: Int, store: String)] = []
    var nextEffect = 1
    for store in stores.prefix(40) {
      seq += 1
      session.events.append(Event(seq: seq, time: 0, payload: .storeCreated(StoreCreated(store: store, type: "Row", parent: nil, identity: store))))
      session.causes.append(nil)
    }
    while session.events.count < count {
      let position = session.events.count
      // Runs of consecutive seqs (whole blocks of them), and stretches with gaps.
      seq += (position / 9000) % 2 == 0 ? 1 : Int.random(in: 1...3, using: &random)
      let store = stores[Int.random(in: 0..<stores.count, using: &random)]
      let line = Int.random(in: 1...40, using: &random)
      let source = CodeLocation(file: "App/Row.swift", line: line, path: "/src/App/Row.swift")
      var cause: Int?
      let payload: Event.Payload
      switch Int.random(in: 0..<10, using: &random) {
      case 0...2:
        payload = .actionReceived(ActionReceived(store: store, action: "Row.Action.tap", value: "tap", origin: .send, source: source))
        actions.append((seq, position, store))
      case 3...5 where !actions.isEmpty:
        // A change of an action, often near, sometimes thousands of events back.
        let far = Int.random(in: 0..<8, using: &random) == 0
        let action = far ? actions[Int.random(in: 0..<actions.count, using: &random)] : actions[actions.count - 1]
        cause = action.position
        payload = .stateChanged(StateChanged(store: action.store, cause: action.seq, changes: [Change(path: "n", op: .replace, old: 0, new: 1)], summary: ""))
      case 6 where !actions.isEmpty:
        let action = actions[actions.count - 1]
        cause = action.position
        payload = .effectStarted(EffectStarted(store: action.store, effect: nextEffect, cause: action.seq, cancelID: nil, source: source))
        running.append((nextEffect, position, action.store))
        nextEffect += 1
      case 7 where !running.isEmpty:
        // An action the effect sent, or its end.
        let pick = Int.random(in: 0..<running.count, using: &random)
        let effect = running[pick]
        cause = effect.position
        if Bool.random(using: &random) {
          payload = .actionReceived(ActionReceived(store: effect.store, action: "Row.Action.tick", value: "tick", origin: .effect, effect: effect.effect))
          actions.append((seq, position, effect.store))
        } else {
          payload = .effectFinished(EffectFinished(store: effect.store, effect: effect.effect, outcome: .completed))
          running.remove(at: pick)
        }
      case 8:
        payload = .mark(Mark(label: "m\(position)"))
      default:
        payload = .derivedRecomputed(DerivedRecomputed(store: store, derived: "total", cause: nil, outputChanged: true, durationNs: 1, source: source))
      }
      session.events.append(Event(seq: seq, time: Double(position), payload: payload))
      session.causes.append(cause)
    }
    return session
  }

  /// Positions at and around each block's edges, and a spread of the others.
  static func probes(_ count: Int) -> [Int] {
    var result = Set(stride(from: 0, to: count, by: 53))
    for edge in stride(from: 0, through: count, by: PackedColumns.blockSize) {
      for position in edge - 3...edge + 3 where position >= 0 && position < count { result.insert(position) }
    }
    result.insert(count - 1)
    return result.sorted()
  }

  /// Checks `model` against a walk over `events` (the first `model.count` of them).
  static func check(_ model: SessionModel, _ session: Session) {
    let events = Array(session.events.prefix(model.count))
    let count = events.count
    let probes = Self.probes(count)
    var consequences: [Int: [Int]] = [:]
    for (position, cause) in session.causes.prefix(count).enumerated() {
      if let cause { consequences[cause, default: []].append(position) }
    }
    for position in probes {
      let event = events[position]
      #expect(model.seq(at: position) == event.seq)
      #expect(model.kindName(at: position) == event.kind)
      #expect(model.store(at: position) == event.store)
      #expect(model.cause(of: position) == session.causes[position], "cause of \(position)")
      #expect(model.consequences(of: position) == consequences[position] ?? [], "consequences of \(position)")
      #expect(model.index(ofSeq: event.seq) == position)
      #expect(model.index(ofSeq: event.seq + 1) == (position + 1 < count && events[position + 1].seq == event.seq + 1 ? position + 1 : nil))
      #expect(model.firstIndex(atOrAfterSeq: event.seq + 1) == position + 1)
      #expect(model.event(at: position) == event)
    }
    #expect(model.firstIndex(atOrAfterSeq: Int.min) == 0)
    #expect(model.firstIndex(atOrAfterSeq: events[count - 1].seq + 1) == count)
    for store in ["Row#0", "Row#7", "Row#299"] {
      let mine = (0..<count).filter { events[$0].store == store }
      #expect(model.indices(ofStore: store) == mine)
      let actions = mine.filter { if case .actionReceived = events[$0].payload { true } else { false } }
      #expect(model.actionIndices(ofStore: store) == actions)
      for position in probes {
        #expect(model.lastIndex(atOrBefore: position, store: store) == mine.last { $0 <= position })
        #expect(model.nextAction(after: position, store: store) == actions.first { $0 > position })
        #expect(model.previousAction(before: position, store: store) == actions.last { $0 < position })
      }
    }
    for line in [1, 17, 40] {
      let mine = (0..<count).filter { SessionModel.source(of: events[$0])?.line == line }
      #expect(model.indices(atLine: line) == mine)
      for position in probes { #expect(model.hasSource(at: position, line: line) == mine.contains(position)) }
    }
    for effect in [1, 2, 50] {
      let start = events.firstIndex { if case .effectStarted(let e) = $0.payload { e.effect == effect } else { false } }
      let end = events.firstIndex { if case .effectFinished(let e) = $0.payload { e.effect == effect } else { false } }
      #expect(model.span(ofEffect: effect)?.start == start)
      #expect(model.span(ofEffect: effect)?.end == end)
    }
  }

  @Test func aLongSessionAnswersAsAWalkOverItsEvents() throws {
    let session = Self.session(events: 3 * PackedColumns.blockSize + 1234, seed: 7)
    let memory = SessionModel()
    for event in session.events { memory.append(event) }
    Self.check(memory, session)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("packed-index-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("live.loupe").path
    // Asked while it grows: before, at and after each block seals.
    var checks = 0
    let live = try GrowingTraceTests.growing(session.events, batch: 1023, at: path) { model in
      Self.check(model, session)
      checks += 1
    }
    #expect(checks == 14)
    Self.check(live, session)
    let file = try SessionModel(tracePath: path)
    Self.check(file, session)
  }
}

extension PackedIndexTests {
  /// Effect ids out of order, reused, or too large for 32 bits are still found (the table
  /// switches from its packed increasing ids to a dictionary).
  @Test func effectIDsOutOfOrder() {
    let model = SessionModel()
    let ids = [4, 9, 3, 9, 1 << 40]
    for (n, id) in ids.enumerated() {
      model.append(Event(seq: 2 * n + 1, time: 0, payload: .effectStarted(EffectStarted(store: "A#1", effect: id, cause: 0, cancelID: nil, source: nil))))
      if id != 3 { model.append(Event(seq: 2 * n + 2, time: 1, payload: .effectFinished(EffectFinished(store: "A#1", effect: id, outcome: .completed)))) }
    }
    #expect(model.effects == ids)
    #expect(ids.map { model.span(ofEffect: $0).map { [$0.start, $0.end ?? -1] } } == [[0, 1], [5, 6], [4, -1], [5, 6], [7, 8]])
    #expect(model.span(ofEffect: 5) == nil)
    #expect(model.effect(1 << 40)?.end?.position == 8)
    #expect(model.effect(9)?.startSeq == 7)
    #expect(model.runningEffects(of: "A#1", at: 5) == [4, 5])
  }

  /// A position list read by offset, by runs of offsets and by searches, across its groups of
  /// 64 and with gaps of every size, answers as the plain array it packs.
  @Test func positionListsAnswerAsTheirArray() {
    var random = SplitMix64(seed: 5)
    var plain: [Int] = []
    var list = PositionList()
    var position = 0
    for _ in 0..<1_000 {
      position += [1, 1, 2, 130, 20_000, 3_000_000][Int(random.next() % 6)]
      plain.append(position)
      list.append(position)
    }
    #expect(list.all == plain)
    for _ in 0..<300 {
      let a = Int(random.next() % 1_001)
      let b = Int(random.next() % 1_001)
      #expect(list.positions(in: min(a, b)..<max(a, b)) == Array(plain[min(a, b)..<max(a, b)]))
      let probe = Int(random.next() % UInt64(position + 2))
      #expect(list.count(atOrBefore: probe) == plain.filter { $0 <= probe }.count)
      if a < plain.count { #expect(list[a] == plain[a]) }
    }
    #expect(list.positions(in: 990..<2_000) == Array(plain[990...]))
    #expect(list.positions(in: 5..<5) == [])
  }
}
