import LoupeCore

extension Reducer {
  /// Prints every action this reducer receives and how it changed the state: the
  /// `_printChanges()`-style summary line, then a −/+ line per change — the same text
  /// `loupe show` prints, with no inspector and no CLI.
  ///
  /// ```swift
  /// let store = Store(initialState: CounterFeature.State()) {
  ///   CounterFeature()._printChanges()
  /// }
  /// store.send(.incrementTapped)
  /// // received action: CounterFeature.Action.incrementTapped
  /// // CounterFeature: _count changed.
  /// //   − count: 0
  /// //   + count: 1
  /// ```
  ///
  /// Like TCA's `_printChanges()`, it is for debugging: it diffs the state on every action
  /// whether or not anything listens. Values are rendered as everywhere else in Loupe, so
  /// `LOUPE_REDACT` paths and `LoupeRedacted` values print as `<redacted>`. Scoped children in
  /// the reducer stay visible to the store.
  ///
  /// - Parameter printer: Where the text goes: ``ChangePrinter/standardError`` (the default),
  ///   or ``ChangePrinter/lines(_:)`` to collect it.
  public func _printChanges(_ printer: ChangePrinter = .standardError) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// Where ``Reducer/_printChanges(_:)`` writes: each action's text, as one string of lines.
public struct ChangePrinter: Sendable {
  let output: @Sendable (String) -> Void

  /// Calls `receive` with each action's text (its lines joined with newlines, no final one).
  public static func lines(_ receive: @escaping @Sendable (String) -> Void) -> ChangePrinter {
    ChangePrinter(output: receive)
  }

  /// Writes each action's text to standard error, which a `LOUPE=stdio` program keeps free
  /// of the protocol.
  public static let standardError = ChangePrinter { text in
    var bytes = Array((text + "\n").utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = LibC.write(LibC.standardError, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0, LibC.errno == LibC.interrupted { continue }
        if written <= 0 { return }  // standard error is gone: nothing to print to
        offset += written
      }
    }
  }
}

/// The reducer ``Reducer/_printChanges(_:)`` returns: runs `base`, then prints what changed.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: ChangePrinter
  let options = RenderOptions.fromEnvironment()

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let old = state
    let effect = base.reduce(into: &state, action: action)
    printer.output(Self.text(action: action, old: old, new: state, options: options))
    return effect
  }

  /// The text for one action (exposed for tests through the printer).
  static func text(action: Base.Action, old: Base.State, new: Base.State, options: RenderOptions) -> String {
    let (label, value, shape) = ValueRenderer.renderAction(action, options: options)
    var lines = ["received action: " + ActionText.text(label: label, value: value, shape: shape)]
    let name = TypeNames.storeType(of: Base.self)
    let changes = StateDiff.diffWithShapes(old, new, options: options)
    if changes.isEmpty {
      lines.append("\(name): (no state changes)")
    } else {
      lines.append(ChangeSummary.line(store: name, changes: changes))
      lines += ChangeText.lines(changes)
    }
    return lines.joined(separator: "\n")
  }
}

extension _PrintChangesReducer: ChildStoreDeclaring {
  func declareChildren(of state: Base.State, to walker: ChildWalker) {
    base.walkChildren(of: state, walker: walker)
  }
}

extension _PrintChangesReducer: NamedAfterWrappedReducer {
  static var storeTypeName: String { TypeNames.storeType(of: Base.self) }
}
