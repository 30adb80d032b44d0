import LoupeCore

/// Asking a trace for a store's state right after an event: the answers, and the errors that
/// say what is missing, shared by `loupe state` and `loupe replay`'s `loupe/state` (which
/// sends the messages as `-32602`, protocol/errors.md).
package struct StateQuery {
  package let states: TraceStateIndex

  package init(states: TraceStateIndex) { self.states = states }

  /// Why there is no answer; the message says what is missing.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
  }

  /// The `seq` to answer for: `at`, or the trace's last event. An `at` outside the trace fails,
  /// naming the trace's range.
  package func seq(_ at: Int?) throws(Failure) -> Int {
    guard let first = states.firstSeq, let last = states.lastSeq else { throw Failure("The trace has no events") }
    guard let at else { return last }
    if at < first || (states.isComplete && at > last) {
      let range = states.isComplete ? "its events are #\(first)–#\(last)" : "its first event is #\(first)"
      throw Failure("No event #\(at) in the trace: \(range)")
    }
    return at
  }

  /// The stores matching `glob` that are alive right after `seq`, in order of creation; fails
  /// when there is none, saying which stores there are or when the matching ones lived.
  package func stores(matching glob: Glob, atSeq seq: Int) throws(Failure) -> [String] {
    let matching = states.stores.filter { glob.matches($0) }
    guard !matching.isEmpty else {
      let alive = states.stores(aliveAtSeq: seq)
      throw Failure("No store '\(glob.pattern)' in the trace by #\(seq). Alive then: \(Self.list(alive))")
    }
    let alive = matching.filter { states.isAlive($0, atSeq: seq) }
    guard !alive.isEmpty else {
      let lived = matching.prefix(5).map { "\($0) (\(lifetimes($0)))" }
      throw Failure(
        "No store '\(glob.pattern)' is alive right after #\(seq): \(lived.joined(separator: ", "))\(matching.count > 5 ? ", …" : "")")
    }
    return alive
  }

  /// The value at `path` in `store`'s state right after `seq`.
  package func state(of store: String, atSeq seq: Int, path: StatePath) throws(Failure) -> RebuiltState {
    let root = StateRebuilder.rootStore(of: store)
    guard let state = states.state(of: store, atSeq: seq) else {
      if store != root, states.state(of: root, atSeq: seq) != nil {
        let scope = StateRebuilder.scopePath(of: store).map { "'\($0)'" } ?? "its scope"
        throw Failure("\(store)'s state (at \(scope)) is not in \(root)'s state right after #\(seq)")
      }
      var missing = "the trace has no state.snapshot of it and no state.changed of it or its scoped stores by then"
      if let first = states.firstSnapshotSeq(of: store) {
        missing = "its first state.snapshot is #\(first), and no state.changed of it or its scoped stores came before"
      } else if states.isComplete && !states.hasState(of: store) {
        missing = "the trace has no state.snapshot of it and no state.changed of it or its scoped stores "
          + "(the program's Loupe may predate snapshots, CONTRACT §10)"
      }
      throw Failure("Nothing of \(root)'s state is known right after #\(seq): \(missing)")
    }
    guard let value = state.at(path) else {
      throw Failure("\(store) has no value at '\(path)' right after #\(seq)\(Self.hint(state.value, path))")
    }
    return value
  }

  /// Why a state is approximate, in a clause: `rebuilt …`.
  package func approximation(of store: String, atSeq seq: Int) -> String {
    guard let snapshot = states.snapshotSeq(of: store, atOrBeforeSeq: seq) else {
      return "rebuilt without a state.snapshot, so only what the trace's changes wrote is known"
    }
    return "rebuilt from state.snapshot #\(snapshot), but it or a change after it was cut short by a size cap (truncated) "
      + "or did not apply: parts may be missing or stale"
  }

  /// When `store` lived: `#3–#40, #52–`.
  private func lifetimes(_ store: String) -> String {
    let lives = states.lives(of: store)
    guard !lives.isEmpty else { return "no store.created" }
    return "alive " + lives.map { "#\($0.created)–" + ($0.destroyed.map { "#\($0)" } ?? "") }.joined(separator: ", ")
  }

  /// Where the path stops being found, and what is there instead.
  private static func hint(_ value: JSON, _ path: StatePath) -> String {
    var current = value
    var found = StatePath()
    for component in path.components {
      guard let next = StateRebuilder.child(current, component) else { break }
      current = next
      found = StatePath(found.components + [component])
    }
    let place = found.isRoot ? "the state" : "'\(found)'"
    switch current {
    case .object(let object):
      let names = object.members.prefix(10).map { ValueText.memberName($0.key) }
      return " (\(place) has \(names.isEmpty ? "no members" : names.joined(separator: ", "))\(object.count > 10 ? ", …" : ""))"
    case .array(let elements):
      return " (\(place) is a list of \(elements.count))"
    default:
      return " (\(place) is \(ValueText.compact(current, maxLength: 40)))"
    }
  }

  package static func list(_ stores: [String]) -> String {
    stores.isEmpty ? "none" : stores.prefix(10).joined(separator: ", ") + (stores.count > 10 ? ", … (\(stores.count) in all)" : "")
  }
}

extension Glob {
  /// A glob matching `text` literally.
  package static func literal(_ text: String) -> Glob {
    var pattern = ""
    for character in text {
      if character == "*" || character == "?" || character == "\\" { pattern.append("\\") }
      pattern.append(character)
    }
    return Glob(pattern)
  }
}
