import LoupeCore
/// Indexing each event as it is added, and the queries on stores, causes and effects.
extension SessionModel {
  package func add(_ event: Event) {
    let position = entries.count
    let store = event.store.map(storeID) ?? -1
    let kind: Kind
    // What the event refers to (``Event/referencedSeq``); actions and effect ends are
    // linked to their cause below.
    var cause = event.referencedSeq.flatMap { index(ofSeq: $0) }
    switch event.payload {
    case .actionReceived(let e):
      kind = .action
      switch e.origin {
      case .effect: cause = e.effect.flatMap { effectLives[$0]?.started }
      case .parent: cause = parentAction(of: e.store)
      case .send, .tool: cause = nil
      }
    case .stateChanged:
      kind = .change
    case .stateSnapshot:
      kind = .snapshot
    case .effectStarted(let e):
      kind = .effectStarted
      effectLives[e.effect] = EffectLife(
        effect: e.effect, store: e.store, cancelID: e.cancelID, source: e.source, started: position, startSeq: event.seq,
        startTime: event.time, cause: cause)
      effectOrder.append(e.effect)
      if store >= 0 { storeEffects[Int(store)].append(e.effect) }
    case .effectFinished(let e):
      kind = .effectEnded
      cause = effectLives[e.effect]?.started
      effectLives[e.effect]?.end = EffectLife.End(
        position: position, seq: event.seq, time: event.time,
        outcome: e.outcome == .completed ? .completed : .failed(e.error))
    case .effectCancelled(let e):
      kind = .effectEnded
      cause = cause ?? effectLives[e.effect]?.started
      effectLives[e.effect]?.end = EffectLife.End(
        position: position, seq: event.seq, time: event.time, outcome: .cancelled(reason: e.reason, by: e.by))
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
    entries.append(Entry(seq: event.seq, kind: kind, store: store, cause: Int32(cause ?? -1)))
    kindCodes.append(kindID(event.kind))
    if let cause { link(Int32(position), toCause: cause) }
    if store >= 0 {
      storeEvents[Int(store)].append(Int32(position))
      if kind == .action { storeActions[Int(store)].append(Int32(position)) }
    }
    if let location = Self.source(of: event) {
      byLine[location.line, default: []].append(Int32(position))
      if let path = location.path { sourcePaths.insert(path) }
    }
    stateIndex.add(event, at: position)
  }

  private func kindID(_ kind: String) -> UInt16 {
    if let id = kindIDs[kind] { return id }
    let id = UInt16(truncatingIfNeeded: kindNames.count)
    kindIDs[kind] = id
    kindNames.append(kind)
    return id
  }

  // MARK: - Without reading the event back

  /// The `seq` of the event at `index`.
  public func seq(at index: Int) -> Int { entries[index].seq }

  /// The `kind` of the event at `index`.
  public func kindName(at index: Int) -> String { kindNames[Int(kindCodes[index])] }

  /// The store of the event at `index`, if it is about one.
  public func store(at index: Int) -> String? {
    let store = entries[index].store
    return store >= 0 ? storeNames[Int(store)] : nil
  }

  /// Where effect `effect` started and ended (`effect.finished` or `effect.cancelled`), as
  /// positions; `nil` for an effect the session never saw start.
  public func span(ofEffect effect: Int) -> (start: Int, end: Int?)? {
    effectLives[effect].map { ($0.started, $0.end?.position) }
  }

  /// Every effect id the session saw start, in order of their start.
  public var effects: [Int] { effectOrder }

  private func link(_ position: Int32, toCause cause: Int) {
    let last = entries[cause].lastConsequence
    if last < 0 {
      entries[cause].firstConsequence = position
    } else {
      entries[Int(last)].nextSibling = position
    }
    entries[cause].lastConsequence = position
  }

  private func storeID(_ name: String) -> Int32 {
    if let id = storeIDs[name] { return id }
    let id = Int32(storeNames.count)
    storeIDs[name] = id
    storeNames.append(name)
    storeEvents.append([])
    storeActions.append([])
    storeEffects.append([])
    return id
  }

  /// The parent store's latest action: the one whose reducer routed a child action.
  private func parentAction(of store: String) -> Int? {
    let parent = lifetimes.info(of: store)?.parent ?? store.lastIndex(of: "/").map { String(store[..<$0]) }
    guard let parent, let id = storeIDs[parent], let last = storeActions[Int(id)].last else { return nil }
    return Int(last)
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
    let cause = entries[index].cause
    return cause >= 0 ? Int(cause) : nil
  }

  /// The positions of the events the event at `index` caused, in order.
  public func consequences(of index: Int) -> [Int] {
    var result: [Int] = []
    var next = entries[index].firstConsequence
    while next >= 0 {
      result.append(Int(next))
      next = entries[Int(next)].nextSibling
    }
    return result
  }

  // MARK: - Stores

  /// The stores alive right after the event at `index`, in order of creation.
  public func stores(at index: Int) -> [StoreInfo] { lifetimes.stores(at: index) }

  /// The positions of every event of `store`, in order.
  public func indices(ofStore store: String) -> [Int] {
    storeIDs[store].map { storeEvents[Int($0)].map(Int.init) } ?? []
  }

  /// The positions of `store`'s `action.received` events, in order.
  public func actionIndices(ofStore store: String) -> [Int] {
    storeIDs[store].map { storeActions[Int($0)].map(Int.init) } ?? []
  }

  /// Every store id seen, in order of first appearance.
  public var allStores: [String] { storeNames }

  /// The last event of `store` (of no store when `nil`) at or before `index`.
  public func lastIndex(atOrBefore index: Int, store: String?) -> Int? {
    guard let store else {
      var i = index
      while i >= 0 {
        if entries[i].store < 0 { return i }
        i -= 1
      }
      return nil
    }
    guard let id = storeIDs[store] else { return nil }
    return Self.last(in: storeEvents[Int(id)], atOrBefore: index)
  }

  /// The next action of `store` (of any store when `nil`) after `index`.
  public func nextAction(after index: Int, store: String?) -> Int? {
    guard let store else {
      return entries.indices.dropFirst(index + 1).first { entries[$0].kind == .action }
    }
    guard let id = storeIDs[store] else { return nil }
    let actions = storeActions[Int(id)]
    let position = Self.firstPosition(in: actions, after: index)
    return position < actions.count ? Int(actions[position]) : nil
  }

  /// The previous action of `store` (of any store when `nil`) before `index`.
  public func previousAction(before index: Int, store: String?) -> Int? {
    guard let store else {
      return entries.indices.prefix(max(0, index)).last { entries[$0].kind == .action }
    }
    guard let id = storeIDs[store] else { return nil }
    return Self.last(in: storeActions[Int(id)], atOrBefore: index - 1)
  }

  // MARK: - Effects

  /// The `effect.started` positions of `store`'s effects still running right after `index`.
  public func runningEffects(of store: String, at index: Int) -> [Int] {
    guard let id = storeIDs[store] else { return [] }
    return storeEffects[Int(id)].compactMap { effect in
      guard let record = effectLives[effect], record.isRunning(at: index) else { return nil }
      return record.started
    }
  }

  // MARK: - Sources

  /// Whether the event at `index` has a source location at `line` (any file).
  public func hasSource(at index: Int, line: Int) -> Bool {
    guard let list = byLine[line] else { return false }
    let position = Self.firstPosition(in: list, after: index - 1)
    return position < list.count && Int(list[position]) == index
  }

  /// Events whose source location is at `line` (any file), in order.
  public func indices(atLine line: Int) -> [Int] {
    byLine[line]?.map(Int.init) ?? []
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
