
/// An ``EventFilter`` prepared once for checking many events: each field's patterns without
/// wildcards go into a set (one hash lookup however many there are), the others stay globs.
///
/// The inspector compiles a subscription's filter when the client subscribes and checks it on
/// that client's own writer thread, never on the program's.
package struct CompiledEventFilter: Sendable {
  package let filter: EventFilter
  private let kinds: GlobSet?
  private let stores: GlobSet?
  private let actions: GlobSet?
  private let paths: GlobSet?

  package init(_ filter: EventFilter) {
    self.filter = filter
    kinds = filter.kinds.map(GlobSet.init)
    stores = filter.stores.map(GlobSet.init)
    actions = filter.actions.map(GlobSet.init)
    paths = filter.paths.map(GlobSet.init)
  }

  package static let all = CompiledEventFilter(.all)

  package var passesEverything: Bool { filter.isEmpty }

  /// The same verdict as ``EventFilter/matches(_:)``.
  package func matches(_ event: Event) -> Bool {
    if case .dropped = event.payload { return true }
    if let kinds, !kinds.matches(event.kind) { return false }
    if let stores, let store = event.store, !stores.matches(store) { return false }
    if let actions {
      guard case .actionReceived(let action) = event.payload, actions.matches(action.action) else { return false }
    }
    if let paths {
      guard case .stateChanged(let change) = event.payload, change.changes.contains(where: { paths.matches($0.path) })
      else { return false }
    }
    return true
  }
}

/// Globs checked together: literal patterns by one set lookup, wildcard patterns in turn.
///
/// With many wildcard patterns, each text's verdict is remembered: the texts a filter sees
/// repeat (a dozen kinds, a few stores, the actions of a feature), so a 1,000-glob filter
/// costs one lookup per event after the first of each text, not 1,000 matches. At most
/// ``GlobVerdicts/capacity`` texts are remembered (then the memory starts over).
package struct GlobSet: Sendable {
  private let literals: Set<String>
  private let patterns: [Glob]
  private let verdicts: GlobVerdicts?

  package init(_ globs: [Glob]) {
    literals = Set(globs.compactMap(\.literal))
    patterns = globs.filter { $0.literal == nil }
    verdicts = patterns.count > 4 ? GlobVerdicts() : nil
  }

  package func matches(_ text: String) -> Bool {
    if literals.contains(text) { return true }
    guard !patterns.isEmpty else { return false }
    guard let verdicts else { return patterns.contains { $0.matches(text) } }
    if let known = verdicts.verdict(for: text) { return known }
    let verdict = patterns.contains { $0.matches(text) }
    verdicts.remember(verdict, for: text)
    return verdict
  }
}

/// The verdicts of a ``GlobSet`` on the texts it has seen (a filter is read by its client's
/// threads, so they are behind a lock).
package final class GlobVerdicts: Sendable {
  /// Most texts remembered.
  package static let capacity = 4_096
  private let known = Lock<[String: Bool]>([:])

  func verdict(for text: String) -> Bool? { known.withLock { $0[text] } }

  func remember(_ verdict: Bool, for text: String) {
    known.withLock { known in
      if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
      known[text] = verdict
    }
  }
}
