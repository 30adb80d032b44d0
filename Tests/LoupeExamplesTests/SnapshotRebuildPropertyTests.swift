import Foundation
import LoupeTesting
import Testing
import TestSupport

@testable import LoupeExamples

/// CONTRACT §10's promise, checked as a property: for random action sequences (seeded, so a
/// failure replays) on the example features and on a state of identified arrays, optionals,
/// enums and dictionaries, the state rebuilt from the recorded events (the core
/// `StateRebuilder`: last `state.snapshot`, then the `state.changed` events) equals, at every
/// `seq`, the rendering of the real state at that moment — with the snapshots every few
/// actions and with the default policy.
///
/// The real state is captured after each action's reducer (`_observeActions`, the hook
/// `TestStore` uses), at the `seq` reached then. It holds from that action's last
/// `state.changed` on; the few events between its reducer and its last `state.changed`
/// (identity events, the changes of one store before another's) show a state the program
/// never held at once, and are the only ones not compared. Effects run on a `TestClock`.
@MainActor
@Suite struct SnapshotRebuildPropertyTests {
  nonisolated static let policies: [SnapshotPolicy] = [SnapshotPolicy(actions: 7, bytes: 4_000), .default]
  nonisolated static let seeds: [UInt64] = [1, 2, 3]

  @Test(arguments: seeds, policies)
  func todos(seed: UInt64, policy: SnapshotPolicy) async throws {
    var random = SeededRandom(seed: seed)
    let run = Run(policy: policy)
    let clock = TestClock()
    let store = Store(initialState: TodosFeature.State(database: .sample(count: 40)), bus: run.bus, clock: clock) {
      TodosFeature()
    }
    run.observe(store)
    let queries = ["", "b", "bu", "buy", "call", "the", "x"]
    for _ in 0..<160 {
      let id = random.int(in: 1...40)
      switch random.int(in: 0...9) {
      case 0, 1, 2: store.send(.toggleDoneTapped(id))
      case 3, 4: store.send(.renamed(id, random.word()))
      case 5: store.send(.personRenamed(random.int(in: 1...8), random.word()))
      case 6: store.send(.completeAllTapped(assignee: random.int(in: 1...8)))
      case 7, 8: store.send(.queryChanged(queries[random.int(in: 0...queries.count - 1)]))
      default: await clock.advance(by: .milliseconds(random.int(in: 0...400)))
      }
    }
    await clock.advance(by: .seconds(1))
    try run.check(stores: [store.storeID])
  }

  @Test(arguments: seeds, policies)
  func game(seed: UInt64, policy: SnapshotPolicy) async throws {
    var random = SeededRandom(seed: seed)
    let run = Run(policy: policy)
    let clock = TestClock()
    let secrets = Secrets.seeded(seed)
    let store = Store(initialState: GameFeature.State(secrets: secrets), bus: run.bus, clock: clock) {
      GameFeature(secrets: secrets, saveDelay: .milliseconds(300), tick: .milliseconds(100))
    }
    run.observe(store)
    for _ in 0..<160 {
      switch random.int(in: 0...12) {
      case 0, 1: store.send(.counter(.incrementTapped))
      case 2: store.send(.counter(.decrementTapped))
      case 3: store.send(.counter(.playNextTapped))
      case 4: store.send(.timer(.start))
      case 5: store.send(.timer(.stop))
      case 6: store.send(.setNavigation(isActive: true))
      case 7: store.send(.setNavigation(isActive: false))
      case 8:
        let count = store.state.resultList?.results.count ?? 0
        if count > 0 { store.send(.resultList(.rowsDeleted(IndexSet(integer: random.int(in: 0...count - 1))))) }
      case 9: store.send(.alert(random.bool() ? .saveTapped : .discardTapped))
      default: await clock.advance(by: .milliseconds(random.int(in: 0...500)))
      }
    }
    await clock.advance(by: .seconds(2))
    try run.check(stores: [store.storeID])
  }

  @Test(arguments: seeds, policies)
  func pages(seed: UInt64, policy: SnapshotPolicy) async throws {
    var random = SeededRandom(seed: seed)
    let run = Run(policy: policy)
    let clock = TestClock()
    let pages = (1...3).map { id in
      Store(initialState: PageFeature.State(id: id), bus: run.bus, cancellation: .processWide, clock: clock) {
        PageFeature(tick: .milliseconds(200))
      }
    }
    for page in pages { run.observe(page) }
    for _ in 0..<160 {
      let page = pages[random.int(in: 0...pages.count - 1)]
      switch random.int(in: 0...6) {
      case 0: page.send(.onAppear)
      case 1: page.send(.onDisappear)
      case 2: page.send(.selected(random.bool()))
      case 3: page.send(.timerTicked)
      default: await clock.advance(by: .milliseconds(random.int(in: 0...700)))
      }
    }
    for page in pages { page.send(.onDisappear) }
    try run.check(stores: pages.map(\.storeID))
  }

  @Test(arguments: seeds, policies)
  func aStateOfIdentifiedArraysOptionalsEnumsAndDictionaries(seed: UInt64, policy: SnapshotPolicy) throws {
    var random = SeededRandom(seed: seed)
    let run = Run(policy: policy)
    let store = Store(initialState: Catalog.State(), bus: run.bus) { Catalog() }
    run.observe(store)
    var nextID = 1
    for _ in 0..<300 {
      let ids = store.state.items.ids
      let someID = ids.isEmpty ? 0 : ids[random.int(in: 0...ids.count - 1)]
      switch random.int(in: 0...13) {
      case 0, 1:
        store.send(.insert(Catalog.Item(id: nextID, name: random.word()), at: random.int(in: 0...ids.count)))
        nextID += 1
      case 2: store.send(.remove(someID))
      case 3: store.send(.move(someID, to: random.int(in: 0...max(0, ids.count - 1))))
      case 4: store.send(.rename(someID, random.word()))
      case 5: store.send(.setKind(someID, random.kind()))
      case 6: store.send(.select(random.bool() ? someID : nil))
      case 7: store.send(.setTag(random.word(), random.int(in: -3...3)))
      case 8: store.send(.removeTag(random.word()))
      case 9: store.send(.setMode(random.mode()))
      case 10: store.send(.setNote(random.bool() ? nil : Catalog.Note(text: random.word(), pinned: random.bool())))
      case 11: store.send(.shuffleScores(random.int(in: 0...1_000)))
      case 12: store.send(.setNested(random.word(), random.bool() ? [random.int(in: 0...9)] : nil))
      default: store.send(.reset)
      }
    }
    try run.check(stores: [store.storeID])
  }
}

/// One recorded run: the bus, its events, and the real state after each action.
@MainActor
final class Run {
  let bus = EventBus(program: "property", pid: 1)
  let recorder: DiagnosticRecorder
  /// Per root store: (the `seq` reached when the reducer had run, the real state rendered).
  private(set) var captures: [String: [(seq: Int, state: JSON)]] = [:]

  init(policy: SnapshotPolicy) {
    bus.snapshotPolicy = policy
    recorder = DiagnosticRecorder(attachingTo: bus)
  }

  func observe<State, Action>(_ store: Store<State, Action>) {
    let id = store.storeID
    let bus = self.bus
    captures[id] = [(bus.lastSeq, ValueRenderer.render(store.state, options: bus.renderOptions))]
    store._observeActions { [weak self] _, _, _, new in
      self?.captures[id, default: []].append((bus.lastSeq, ValueRenderer.render(new, options: bus.renderOptions)))
    }
  }

  /// Rebuilds every store in `stores` at every `seq` of the run and compares.
  func check(stores: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let events = recorder.events
    #expect(events.contains { $0.kind == StateSnapshot.kind }, sourceLocation: sourceLocation)
    for store in stores {
      let captures = self.captures[store] ?? []
      #expect(captures.count > 1, "\(store) processed no action", sourceLocation: sourceLocation)
      // Capture k (k ≥ 1, the state after action k) holds from its action's last
      // `state.changed` on; before the first, from the `seq` its reducer ran at.
      var holdsFrom: [Int] = []
      for (index, capture) in captures.enumerated() {
        let next = index + 1 < captures.count ? captures[index + 1].seq : Int.max
        let lastChange = events.last { event in
          guard event.seq > capture.seq, event.seq < next, case .stateChanged(let e) = event.payload else { return false }
          return StateRebuilder.rootStore(of: e.store) == store
        }
        holdsFrom.append(lastChange?.seq ?? capture.seq)
      }
      var rebuilder = StateRebuilder()
      var compared = 0
      var current = 0  // the last capture taken before the event (its reducer ran before it)
      for event in events {
        rebuilder.apply(event)
        guard event.seq >= captures[0].seq else { continue }
        while current + 1 < captures.count, captures[current + 1].seq < event.seq { current += 1 }
        guard event.seq >= holdsFrom[current] else { continue }  // its changes are on their way
        let expected = captures[current].state
        guard let rebuilt = rebuilder.state(of: store) else {
          Issue.record("\(store): nothing rebuilt at seq \(event.seq)", sourceLocation: sourceLocation)
          return
        }
        if rebuilt.value != expected || rebuilt.approximate {
          Issue.record(
            """
            \(store) at seq \(event.seq) (\(event.kind)): rebuilt\(rebuilt.approximate ? " (approximate)" : "") \
            \(rebuilt.value.jsonText)
            real \(expected.jsonText)
            """, sourceLocation: sourceLocation)
          return
        }
        compared += 1
      }
      #expect(compared > captures.count, "\(store): \(compared) seqs compared", sourceLocation: sourceLocation)
    }
  }
}

/// A deterministic generator (SplitMix64): the same seed, the same run.
struct SeededRandom {
  private var state: UInt64
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func bool() -> Bool { next() & 1 == 0 }

  mutating func word() -> String {
    ["milk", "eggs", "é", "e\u{301}", "a b", "", "Zoë", "tea", "x\"y", "line\nbreak", "🍵"][int(in: 0...10)]
  }

  mutating func kind() -> Catalog.Kind {
    switch int(in: 0...3) {
    case 0: .plain
    case 1: .sized(width: int(in: 0...5), height: int(in: 0...5))
    case 2: .tagged(word())
    default: .nested(.tagged(word()))
    }
  }

  mutating func mode() -> Catalog.Mode {
    switch int(in: 0...2) {
    case 0: .browsing
    case 1: .editing(int(in: 1...9))
    default: .searching(query: word(), page: bool() ? int(in: 0...3) : nil)
    }
  }
}

/// A state of identified arrays, optionals, enums with and without payloads, dictionaries and
/// plain arrays.
struct Catalog: Reducer {
  struct Item: Equatable, Identifiable {
    let id: Int
    var name: String
    var kind: Kind = .plain
    var scores: [Int] = []
  }
  indirect enum Kind: Equatable {
    case plain
    case sized(width: Int, height: Int)
    case tagged(String)
    case nested(Kind)
  }
  enum Mode: Equatable {
    case browsing
    case editing(Int)
    case searching(query: String, page: Int?)
  }
  struct Note: Equatable {
    var text: String
    var pinned: Bool
  }
  struct State: Equatable {
    var items: IdentifiedArrayOf<Item> = []
    var selected: Item.ID?
    var tags: [String: Int] = [:]
    var mode: Mode = .browsing
    var note: Note?
    var nested: [String: [Int]?] = [:]
  }
  enum Action: Equatable {
    case insert(Item, at: Int)
    case remove(Item.ID)
    case move(Item.ID, to: Int)
    case rename(Item.ID, String)
    case setKind(Item.ID, Kind)
    case select(Item.ID?)
    case setTag(String, Int)
    case removeTag(String)
    case setMode(Mode)
    case setNote(Note?)
    case shuffleScores(Int)
    case setNested(String, [Int]?)
    case reset
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .insert(let item, let index):
      state.items.insert(item, at: min(index, state.items.count))
    case .remove(let id):
      state.items.remove(id: id)
    case .move(let id, let index):
      guard let item = state.items.remove(id: id) else { break }
      state.items.insert(item, at: min(index, state.items.count))
    case .rename(let id, let name):
      state.items[id: id]?.name = name
    case .setKind(let id, let kind):
      state.items[id: id]?.kind = kind
    case .select(let id):
      state.selected = id
    case .setTag(let key, let value):
      state.tags[key] = value
    case .removeTag(let key):
      state.tags[key] = nil
    case .setMode(let mode):
      state.mode = mode
    case .setNote(let note):
      state.note = note
    case .shuffleScores(let seed):
      for index in state.items.indices {
        state.items[index].scores = (0..<((seed + index) % 4)).map { ($0 * 7 + seed) % 10 }
      }
    case .setNested(let key, let value):
      state.nested[key] = .some(value)
    case .reset:
      state = State(items: state.items.count > 3 ? IdentifiedArray(uniqueElements: state.items.prefix(2)) : [])
    }
    return .none
  }
}
