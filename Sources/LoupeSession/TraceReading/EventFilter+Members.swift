import LoupeCore
extension EventFilter {
  /// The filter's verdict from an event's top-level `kind`, `store` and `action` members
  /// alone, or `nil` when the event must be decoded to know (a `paths` filter on a
  /// `state.changed` event, or members missing or escaped).
  ///
  /// It agrees with ``matches(_:)`` on every event that decodes; the trace reader uses it to
  /// filter lines without decoding them.
  package func decide(kind: String, store: EventLineScanner.Member, action: EventLineScanner.Member, in line: UnsafeBufferPointer<UInt8>) -> Bool? {
    if kind == Dropped.kind { return true }
    if let kinds, !kinds.anyMatches(kind) { return false }
    if let stores, !Self.storelessKinds.contains(kind) {
      switch store {
      case .plain(let range):
        if !stores.anyMatches(utf8: UnsafeBufferPointer(rebasing: line[range])) {
          return false
        }
      case .absent:
        // Known kinds need their store (decoding will fail); `warning` and unknown kinds may lack one.
        if Event.knownKinds.contains(kind), kind != Warning.kind { return nil }
      case .other:
        return nil
      }
    }
    if let actions {
      guard kind == ActionReceived.kind else { return false }
      guard case .plain(let range) = action else { return nil }
      if !actions.anyMatches(utf8: UnsafeBufferPointer(rebasing: line[range])) {
        return false
      }
    }
    if paths != nil {
      guard kind == StateChanged.kind else { return false }
      return nil
    }
    return true
  }

  /// The filter's verdict on the event in `line` (one trace line or wire event, already
  /// checked to be a JSON object) from its `kind`, `store` and `action` members, read without
  /// decoding; `nil` when only the decoded event can tell (a `paths` filter, members missing,
  /// escaped or not strings). Agrees with ``matches(_:)`` on every line that decodes.
  ///
  /// For a reader that must see every event but print only some (`show`'s timeline).
  public func decide(line: UnsafeBufferPointer<UInt8>) -> Bool? {
    if isEmpty { return true }
    let needs = EventLineSkim.Needs(store: stores != nil, action: actions != nil)
    guard let head = EventLineSkim.head(line, needs: needs), case .plain(let kindRange) = head.kind else { return nil }
    let kind = UnsafeBufferPointer(rebasing: line[kindRange])
    if kindsOnly { return kindsAdmit(kind) }
    if !kindsAdmit(kind) { return false }
    return decide(kind: String(decoding: kind, as: UTF8.self), store: head.store, action: head.action, in: line)
  }

  /// Whether the filter looks at nothing but kinds (no stores, actions or paths): then
  /// ``kindsAdmit(_:)`` is its whole verdict, as ``decide(kind:store:action:in:)`` would give it.
  package var kindsOnly: Bool { stores == nil && actions == nil && paths == nil }

  /// ``decide(kind:store:action:in:)`` for a filter that is ``kindsOnly``, on the kind's
  /// UTF-8 bytes (no string per line): `dropped` events always pass.
  package func kindsAdmit(_ kind: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let kinds else { return true }
    return kinds.anyMatches(utf8: kind) || EventLineScanner.bytes(kind, 0..<kind.count, equal: "dropped")
  }

  /// Kinds whose events carry no store, so a `stores` filter does not exclude them.
  static package let storelessKinds: Set<String> = [SessionStarted.kind, Mark.kind, Dropped.kind]
}
