import LoupeCore

/// The store bookkeeping of one session (``EventBus``): the live stores that `loupe/stores`
/// lists and `loupe/state` reads, the session's store numbers (`PageFeature#3`) and
/// identities (`i7`), and the cancel ids shared by its `.processWide` stores. Everything a
/// store numbers or shares belongs to its bus, never to the process: a test recorder's
/// private bus sees `PageFeature#1`, `i1` and its own cancel ids whatever other tests run.
/// Thread-safe: the inspector calls it from its own threads.
final class LiveStoreDirectory: StoreDirectory {
  typealias StateReader = @MainActor @Sendable (StatePath?) -> Result<(json: JSON, shape: ValueShape?), StateQueryError>

  /// The `Store` a tool acts on, while the program has one for the node.
  typealias ControlTarget = @MainActor @Sendable () -> (any ToolControllable)?

  private struct Entry {
    let info: StoreInfo
    let reader: StateReader
    let target: ControlTarget
  }

  private struct State {
    var entries: [Entry] = []
    var typeCounts: [String: Int] = [:]
    var identities = 0
  }

  private let state = Lock(State())
  private weak let bus: EventBus?
  /// The registry of every store of this session created with `cancellation: .processWide`
  /// (on ``EventBus/shared``, the whole program).
  let processWideCancellation: CancellationRegistry

  @MainActor
  init(bus: EventBus) {
    self.bus = bus
    self.processWideCancellation = CancellationRegistry()
  }

  /// The directory of `bus`, installed as `bus.directory` when it has none.
  @MainActor
  static func of(_ bus: EventBus) -> LiveStoreDirectory {
    if let existing = bus.directory as? LiveStoreDirectory { return existing }
    if let detached = detachedDirectories[ObjectIdentifier(bus)], detached.bus === bus { return detached }
    let directory = LiveStoreDirectory(bus: bus)
    if bus.directory == nil {
      bus.directory = directory
    } else {
      // Someone else answers `loupe/stores` on this bus; keep counting in a private directory.
      detachedDirectories = detachedDirectories.filter { $0.value.bus != nil }
      detachedDirectories[ObjectIdentifier(bus)] = directory
    }
    return directory
  }

  @MainActor private static var detachedDirectories: [ObjectIdentifier: LiveStoreDirectory] = [:]

  /// The next number for a root store of `type`: 1, 2, 3 … within the session.
  func nextIndex(for type: String) -> Int {
    state.withLock { state in
      let next = (state.typeCounts[type] ?? 0) + 1
      state.typeCounts[type] = next
      return next
    }
  }

  /// A new identity, unique in the session: `i1`, `i2`, …
  func nextIdentity() -> String {
    state.withLock { state in
      state.identities += 1
      return "i\(state.identities)"
    }
  }

  func add(_ info: StoreInfo, reader: @escaping StateReader, target: @escaping ControlTarget) {
    state.withLock { $0.entries.append(Entry(info: info, reader: reader, target: target)) }
  }

  func remove(id: String, identity: String) {
    state.withLock { state in
      state.entries.removeAll { $0.info.id == id && $0.info.identity == identity }
    }
  }

  /// The live stores, for `loupe/stores` (on a client's thread, maybe 100,000 times in one
  /// batch): O(1) under the lock the program takes to add and remove stores; the copy is
  /// made outside it.
  func liveStores() -> [StoreInfo] {
    let entries = state.withLock { $0.entries }
    return entries.map(\.info)
  }

  func state(of store: String, path: StatePath?) async throws(StateQueryError) -> (seq: Int, state: JSON, shape: ValueShape?) {
    guard let reader = state.withLock({ $0.entries.last { $0.info.id == store }?.reader }) else {
      throw .unknownStore(store)
    }
    let result = await MainActor.run { reader(path) }
    let rendered = try result.get()
    return (bus?.lastSeq ?? 0, rendered.json, rendered.shape)
  }
}

extension LiveStoreDirectory {
  /// A tool's `loupe/send` or `loupe/setState` (CONTRACT §16): the value is decoded on the
  /// caller's thread, so the main actor only runs the action or takes the state.
  func control(_ store: String, _ operation: StoreControl, client: String) async throws(StoreControlError) -> StoreControlResult {
    guard let target = entryTarget(store) else { throw .unknownStore(store) }
    let found = await MainActor.run { target().map { UncheckedSendable(type(of: $0) as any ToolControllable.Type) } }
    guard let type = found?.value else {
      throw .notControllable(
        "'\(store)' has no Store object in the program (the program never scoped a store to it, or it has ended): send to its parent store an action that reaches it")
    }
    switch operation {
    case .send(let json):
      let action = try type.decodeAction(json)
      let bus = self.bus
      return try await MainActor.run { () -> Result<StoreControlResult, StoreControlError> in
        guard let live = target() else { return .failure(.unknownStore(store)) }
        let seq = live.sendFromTool(action, client: client)
        return .success(StoreControlResult(seq: seq, through: seq == nil ? nil : bus?.lastSeq))
      }.get()
    case .setState(let json):
      // Redacted values come back from the program's state, on its thread.
      var incoming = json
      if bus?.renderOptions.redactedPaths.isEmpty == false || RedactedValues.holdsRedacted(json) {
        incoming = await MainActor.run { target()?.restoringRedactedValues(in: json) } ?? json
      }
      let state = try type.decodeState(incoming)
      let bus = self.bus
      return try await MainActor.run { () -> Result<StoreControlResult, StoreControlError> in
        guard let live = target() else { return .failure(.unknownStore(store)) }
        do throws(StoreControlError) {
          let seq = try live.setStateFromTool(state, client: client)
          return .success(StoreControlResult(seq: seq, through: seq == nil ? nil : bus?.lastSeq))
        } catch {
          return .failure(error)
        }
      }.get()
    }
  }

  private func entryTarget(_ store: String) -> ControlTarget? {
    state.withLock { $0.entries.last { $0.info.id == store }?.target }
  }
}

/// Finds the value at a state path in a rendered state.
enum JSONPathLookup {
  static func value(at path: StatePath, in json: JSON) -> JSON? {
    var current = json
    for component in path.components {
      switch (component, current) {
      case (.field(let name), .object(let object)):
        guard let next = object[name] else { return nil }
        current = next
      case (.index(let index), .array(let array)):
        guard array.indices.contains(index) else { return nil }
        current = array[index]
      case (.id(let id), .array(let array)):
        guard let next = array.first(where: { $0["id"] == id }) else { return nil }
        current = next
      case (.id(let id), .object(let object)):
        guard let next = object[id.stringValue ?? id.jsonText] else { return nil }
        current = next
      case (.key(let key), .object(let object)):
        guard let next = object[key] else { return nil }
        current = next
      default:
        return nil
      }
    }
    return current
  }
}
