import LoupeCore
/// Indexing each event as it is added, and the queries on stores, causes and effects.
extension SessionModel {
  package func add(_ event: Event) { add(IndexedEvent(event)) }

  package func add(_ indexed: IndexedEvent) {
    let position = count
    let store = indexed.store.map(storeID) ?? -1
    let kind: Kind
    // What the event refers to (``Event/referencedSeq``); actions and effect ends are
    // linked to their cause below.
    var cause = indexed.referencedSeq.flatMap { index(ofSeq: $0) }
    var source: CodeLocation?
    switch indexed.details {
    case .action(let origin, let effect, let location):
      kind = .action
      cause = actionCause(origin: origin, effect: effect, store: indexed.store ?? "")
      source = location
    case .change(let besideByStore):
      kind = .change
      if let store = indexed.store {
        stateIndex.add(changeOf: StateRebuilder.rootStore(of: store), at: position, besideByStore: besideByStore)
      }
    case .derived(let location):
      kind = .other
      source = location
    case .event(let decoded):
      let event = decoded.event
      kind = add(event, at: position, store: store, cause: &cause)
      source = Self.source(of: event)
      stateIndex.add(event, at: position)
    }
    columns.append(indexed.seq, pairID(kind: kindID(indexed.kind, kind), store: Int(store) + 1), cause.map { position - $0 } ?? 0)
    lastAppendedSeq = indexed.seq
    if let cause, position - cause > Self.nearConsequences {
      farConsequences[Int32(cause), default: []].append(Int32(position))
    }
    if store >= 0 {
      storeEvents[Int(store)].append(position)
      if kind == .action { storeActions[Int(store)].append(position) }
    }
    if let location = source {
      byLine[location.line, default: PositionList()].append(position)
      if let path = location.path { sourcePaths.insert(path) }
    }
  }

  private func actionCause(origin: ActionReceived.Origin, effect: Int?, store: String) -> Int? {
    switch origin {
    case .effect: effect.flatMap(effectStart)
    case .parent: parentAction(of: store)
    case .send, .tool: nil
    }
  }

  /// The kind of a decoded `event` at `position` (of store number `store`, -1 for none), its
  /// lifecycle and effects noted, and its cause when its kind links it to one.
  private func add(_ event: Event, at position: Int, store: Int32, cause: inout Int?) -> Kind {
    let kind: Kind
    switch event.payload {
    case .actionReceived(let e):
      kind = .action
      cause = actionCause(origin: e.origin, effect: e.effect, store: e.store)
    case .stateChanged:
      kind = .change
    case .stateSnapshot:
      kind = .snapshot
    case .effectStarted(let e):
      kind = .effectStarted
      let ordinal = effectTable.start(e.effect, at: position)
      if store >= 0 { storeEffects[Int(store)].append(ordinal) }
    case .effectFinished(let e):
      kind = .effectEnded
      cause = effectStart(e.effect)
      effectTable.end(e.effect, at: position)
    case .effectCancelled(let e):
      kind = .effectEnded
      cause = cause ?? effectStart(e.effect)
      effectTable.end(e.effect, at: position)
    case .derivedRecomputed:
      kind = .other
    case .storeCreated:
      kind = .storeCreated
      lifetimes.apply(event, at: position)
    case .storeDestroyed:
      kind = .storeDestroyed
      lifetimes.apply(event, at: position)
    case .identityChanged:
      kind = .identity
      lifetimes.apply(event, at: position)
    case .unknown(StateRebuilder.snapshotKind, _):
      kind = .snapshot
    default:
      kind = .other
    }
    return kind
  }

  private func pairID(kind: Int, store: Int) -> Int {
    let key = kind << 32 | store
    if let id = pairIDs[key] { return id }
    let id = pairKinds.count
    pairIDs[key] = id
    pairKinds.append(Int32(kind))
    pairStores.append(Int32(store))
    return id
  }

  /// The store of the event at `index` as its index in `storeNames` + 1, 0 for none.
  package func storeCode(at index: Int) -> Int { Int(pairStores[columns.value(1, at: index)]) }

  private func effectStart(_ effect: Int) -> Int? { effectTable.ordinal(of: effect).map { effectTable.span($0).start } }

  private func kindID(_ name: String, _ kind: Kind) -> Int {
    let key = KindKey(name: name, kind: kind)
    if let id = kindIDs[key] { return id }
    let id = kindNames.count
    kindIDs[key] = id
    kindNames.append(name)
    kindClasses.append(kind)
    return id
  }

  // MARK: - Without reading the event back

  /// The `seq` of the event at `index`.
  public func seq(at index: Int) -> Int { columns.value(0, at: index) }

  /// The `kind` of the event at `index`.
  public func kindName(at index: Int) -> String { kindNames[Int(pairKinds[columns.value(1, at: index)])] }

  /// The store of the event at `index`, if it is about one.
  public func store(at index: Int) -> String? {
    let store = storeCode(at: index)
    return store > 0 ? storeNames[store - 1] : nil
  }

  /// Where effect `effect` started and ended (`effect.finished` or `effect.cancelled`), as
  /// positions; `nil` for an effect the session never saw start.
  public func span(ofEffect effect: Int) -> (start: Int, end: Int?)? {
    effectTable.ordinal(of: effect).map(effectTable.span)
  }

  /// Every effect id the session saw start, in order of their start.
  public var effects: [Int] { effectTable.ids }

  private func storeID(_ name: String) -> Int32 {
    if let id = storeIDs[name] { return id }
    let id = Int32(storeNames.count)
    storeIDs[name] = id
    storeNames.append(name)
    storeEvents.append(PositionList())
    storeActions.append(PositionList())
    storeEffects.append(PositionList())
    return id
  }

  /// The parent store's latest action: the one whose reducer routed a child action.
  private func parentAction(of store: String) -> Int? {
    let parent = lifetimes.info(of: store)?.parent ?? store.lastIndex(of: "/").map { String(store[..<$0]) }
    guard let parent, let id = storeIDs[parent] else { return nil }
    return storeActions[Int(id)].last
  }

  /// The line of code an event came from (CONTRACT §9).
  public static func source(of event: Event) -> CodeLocation? {
    switch event.payload {
    case .actionReceived(let e): e.source
    case .effectStarted(let e): e.source
    case .effectCancelled(let e): e.by?.source
    case .derivedRecomputed(let e): e.source
    case .warning(let e): e.source
    default: nil
    }
  }

  // MARK: - Causes

  /// The position of what caused the event at `index`.
  public func cause(of index: Int) -> Int? {
    let back = columns.value(2, at: index)
    return back > 0 ? index - back : nil
  }

  /// The positions of the events the event at `index` caused, in order: those near it found
  /// from their causes, the far ones kept aside.
  public func consequences(of index: Int) -> [Int] {
    var result: [Int] = []
    let near = min(count - 1, index + Self.nearConsequences)
    if index < near {
      for next in index + 1...near where columns.value(2, at: next) == next - index { result.append(next) }
    }
    if let far = farConsequences[Int32(index)] { result += far.map(Int.init) }
    return result
  }

  // MARK: - Stores

  /// The stores alive right after the event at `index`, in order of creation.
  public func stores(at index: Int) -> [StoreInfo] { lifetimes.stores(at: index) }

  /// The positions of every event of `store`, in order.
  public func indices(ofStore store: String) -> [Int] {
    storeIDs[store].map { storeEvents[Int($0)].all } ?? []
  }

  /// The positions of `store`'s `action.received` events, in order.
  public func actionIndices(ofStore store: String) -> [Int] {
    storeIDs[store].map { storeActions[Int($0)].all } ?? []
  }

  /// Every store id seen, in order of first appearance.
  public var allStores: [String] { storeNames }

  /// The last event of `store` (of no store when `nil`) at or before `index`.
  public func lastIndex(atOrBefore index: Int, store: String?) -> Int? {
    guard let store else {
      var i = index
      while i >= 0 {
        if storeCode(at: i) == 0 { return i }
        i -= 1
      }
      return nil
    }
    guard let id = storeIDs[store] else { return nil }
    return storeEvents[Int(id)].last(atOrBefore: index)
  }

  /// The next action of `store` (of any store when `nil`) after `index`.
  public func nextAction(after index: Int, store: String?) -> Int? {
    guard let store else {
      return (max(0, index + 1)..<max(0, count, index + 1)).first { kind(at: $0) == .action }
    }
    guard let id = storeIDs[store] else { return nil }
    return storeActions[Int(id)].first(after: index)
  }

  /// The previous action of `store` (of any store when `nil`) before `index`.
  public func previousAction(before index: Int, store: String?) -> Int? {
    guard let store else {
      return (0..<min(max(0, index), count)).last { kind(at: $0) == .action }
    }
    guard let id = storeIDs[store] else { return nil }
    return storeActions[Int(id)].last(atOrBefore: index - 1)
  }

  // MARK: - Effects

  /// The `effect.started` positions of `store`'s effects still running right after `index`.
  public func runningEffects(of store: String, at index: Int) -> [Int] {
    guard let id = storeIDs[store] else { return [] }
    return storeEffects[Int(id)].all.filter { effectTable.isRunning($0, at: index) }.map { effectTable.span($0).start }
  }

  // MARK: - Sources

  /// Whether the event at `index` has a source location at `line` (any file).
  public func hasSource(at index: Int, line: Int) -> Bool {
    guard let list = byLine[line] else { return false }
    return list.first(after: index - 1) == index
  }

  /// Events whose source location is at `line` (any file), in order.
  public func indices(atLine line: Int) -> [Int] {
    byLine[line]?.all ?? []
  }

  /// Whether an event of the session names the file `path` (`#filePath`).
  public func namesSourcePath(_ path: String) -> Bool { sourcePaths.contains(path) }

  // MARK: - Binary search

  static package func firstPosition(in list: [Int32], after index: Int) -> Int {
    StateIndex.firstPosition(in: list, after: index)
  }

  static package func last(in list: [Int32], atOrBefore index: Int) -> Int? {
    let position = firstPosition(in: list, after: index)
    return position > 0 ? Int(list[position - 1]) : nil
  }
}
