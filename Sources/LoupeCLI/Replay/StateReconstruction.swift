import LoupeCore

/// `loupe/state` for a replayed trace. A trace records changes, not whole states, so a value
/// is known only where a change wrote it: the last change at the asked path or at a path
/// containing it, with later changes inside it applied on top. Anything else is reported as
/// not recorded rather than guessed.
enum StateReconstruction {
  enum Failure: Error, Equatable {
    /// No change in the trace wrote the value (or a part of it could not be placed).
    case notRecorded
    /// The value was removed, or its container does not have it.
    case noValue
  }

  /// The value at `path` in `store` after the last `state.changed` event of the trace.
  static func value(of store: String, at path: StatePath, in tracePath: String) throws(CommandFailure) -> Result<JSON, Failure> {
    let reader = try TraceInput.open(tracePath)
    let filter = EventFilter(kinds: [Glob(StateChanged.kind)], stores: [Glob(escaping: store)])
    var value: Result<JSON, Failure> = .failure(.notRecorded)
    while let item = try TraceInput.next(reader, filter: filter), let event = item.event {
      guard case .stateChanged(let e) = event.payload, e.store == store else { continue }
      for change in e.changes {
        guard let changed = try? StatePath(parsing: change.path) else { continue }
        let written: JSON? = change.op == .remove ? nil : change.new
        if path.hasPrefix(changed) {
          // The change wrote the asked value or a container of it.
          let inner = Array(path.components.dropFirst(changed.components.count))
          guard let written else {
            value = .failure(.noValue)
            continue
          }
          value = navigate(written, inner).map(Result.success) ?? .failure(.noValue)
        } else if changed.hasPrefix(path), case .success(var known) = value {
          // The change is inside the known value: apply it there.
          do {
            try change.relative(to: path).apply(to: &known)
            value = .success(known)
          } catch {
            value = .failure(.notRecorded)
          }
        } else if changed.hasPrefix(path) {
          value = .failure(.notRecorded)
        }
      }
    }
    return value
  }

  static func navigate(_ value: JSON, _ components: [StatePath.Component]) -> JSON? {
    var current = value
    for component in components {
      guard let next = child(current, component) else { return nil }
      current = next
    }
    return current
  }

  private static func child(_ value: JSON, _ component: StatePath.Component) -> JSON? {
    switch component {
    case .field(let name), .key(let name):
      return value[name]
    case .index(let index):
      guard let array = value.arrayValue, array.indices.contains(index) else { return nil }
      return array[index]
    case .id(let id):
      return value.arrayValue?.first { $0["id"] == id }
    }
  }
}

extension Glob {
  /// A glob matching `text` literally.
  init(escaping text: String) {
    var pattern = ""
    for character in text {
      if character == "*" || character == "?" || character == "\\" { pattern.append("\\") }
      pattern.append(character)
    }
    self.init(pattern)
  }
}
