import Loupe
import LoupeCore

/// The failure messages of ``TestStore`` (pinned as golden strings by its tests).
enum TestStoreMessages {
  static func label(_ action: Any) -> String {
    let (value, shape) = ValueRenderer.renderWithShape(action)
    return ActionText.text(label: ValueRenderer.actionLabel(action), value: value, shape: shape)
  }

  static func caseName<Root, Value>(_ casePath: CasePath<Root, Value>) -> String {
    casePath.caseText ?? "an action of the case with a \(ValueRenderer.typeName(Value.self)) payload"
  }

  /// The −/+ lines of two values, indented for a message.
  static func diffLines(expected: Any, actual: Any) -> [String] {
    let (old, oldShape) = ValueRenderer.renderWithShape(expected)
    let (new, newShape) = ValueRenderer.renderWithShape(actual)
    let lines = DiffText.lines(old, new, oldShape: oldShape, newShape: newShape)
    if lines.isEmpty {
      // Equatable says they differ but they render alike (a float's last digit, a custom ==).
      return ["  − \(String(reflecting: expected))", "  + \(String(reflecting: actual))"]
    }
    return lines.map { "  " + $0 }
  }

  static func stateMismatch<State>(expected: State, actual: State, hadClosure: Bool) -> String {
    let header = hadClosure
      ? "A state change does not match expectation:"
      : "State was not expected to change, but a change occurred:"
    return header + "\n\n" + diffLines(expected: expected, actual: actual).joined(separator: "\n") + "\n\n" + DiffLines.legend
  }

  static let noChange = """
    Expected state to change, but no change occurred: the closure made no observable \
    modifications to the state. If no change is expected, omit the closure.
    """

  static func list(_ actions: [Any]) -> String {
    actions.map { "  " + label($0) }.joined(separator: "\n")
  }

  static func mustReceiveBeforeSending(_ actions: [Any]) -> String {
    """
    Must handle \(plural(actions.count, "received action", "received actions")) before sending an action:

    \(list(actions))

    Receive \(actions.count == 1 ? "it" : "them") (store.receive(…)), skip \(actions.count == 1 ? "it" : "them") \
    (store.skipReceivedActions()), or turn exhaustivity off.
    """
  }

  static func unreceivedAtEnd(_ actions: [Any]) -> String {
    """
    The store received \(plural(actions.count, "action", "actions")) by the end of the test that \
    \(actions.count == 1 ? "was" : "were") not asserted:

    \(list(actions))

    Receive \(actions.count == 1 ? "it" : "them") (store.receive(…)) or skip \(actions.count == 1 ? "it" : "them") \
    (store.skipReceivedActions()).
    """
  }

  static func unexpectedAction(expected: Any, actual: Any) -> String {
    var diff = DiffLines(context: nil)
    diff.expected(label(expected))
    diff.actual(label(actual))
    return diff.message("Received unexpected action:")
  }

  static func unexpectedAction(expectedCase: String, actual: Any) -> String {
    var diff = DiffLines(context: nil)
    diff.expected(expectedCase)
    diff.actual(label(actual))
    return diff.message("Received unexpected action:")
  }

  // MARK: Effects

  static func line(_ running: RunningEffect) -> String {
    let effect = running.effect
    var text = "effect \(effect.effect) of \(effect.store)"
    if let source = effect.source { text += " (\(source.shortDescription))" }
    guard let cause = running.cause else { return text }
    text += ", returned by \(cause.action)"
    switch (cause.origin, cause.source) {
    case (.send, let source?): text += " sent at \(source.shortDescription)"
    case (.effect, let source?): text += " sent by effect \(cause.effect.map(String.init) ?? "?") (\(source.shortDescription))"
    case (.parent, _): text += " routed from the parent store"
    default: break
    }
    return text
  }

  static func effectList(_ running: [RunningEffect]) -> String {
    running.map { "  " + line($0) }.joined(separator: "\n")
  }

  static func effectsStillRunning(_ running: [RunningEffect]) -> String {
    let one = running.count == 1
    return """
      \(one ? "An effect is" : "\(running.count) effects are") still running at the end of the test:

      \(effectList(running))

      End \(one ? "it" : "them") before the test does: send the action that cancels \(one ? "it" : "them"), \
      await \(one ? "it" : "them") (store.finish(), clock.advance(by:)), or cancel \(one ? "it" : "them") \
      (store.skipInFlightEffects()).
      """
  }

  static func effectsAsleep(_ running: [RunningEffect]) -> String {
    """
    Expected effects to finish, but \(plural(running.count, "effect is", "effects are")) asleep on the test clock:

    \(effectList(running))

    Advance the clock (clock.advance(by:)) or cancel \(running.count == 1 ? "it" : "them") first.
    """
  }

  static func finishTimeout(_ running: [RunningEffect], after limit: Duration) -> String {
    """
    Expected effects to finish, but \(plural(running.count, "effect is", "effects are")) still running after \(limit):

    \(effectList(running))
    """
  }

  static func nothingToReceive(_ expected: String, running: [RunningEffect]) -> String {
    var text = "Expected to receive \(expected), but received nothing: "
    guard !running.isEmpty else { return text + "no effect is running." }
    text += "every effect running is asleep on the test clock.\n\n\(effectList(running))\n\n"
    return text + "Advance the clock (clock.advance(by:)) before receiving."
  }

  static func receiveTimeout(_ expected: String, after limit: Duration, running: [RunningEffect]) -> String {
    var text = "Expected to receive \(expected), but received nothing after \(limit)."
    if !running.isEmpty { text += "\n\nStill running:\n\n\(effectList(running))" }
    return text
  }

  // MARK: Dependencies and skipped assertions

  static func missingTestValue(_ key: String) -> String {
    """
    @Dependency(\(key)) has no test value, and the feature used it under TestStore. \
    Set it in the TestStore's withDependencies closure, or give its key a testValue.
    """
  }

  static func skippedReceived(_ actions: [Any]) -> String {
    "Skipped receiving \(plural(actions.count, "action", "actions")):\n\n\(list(actions))"
  }

  static func skippedEffects(_ running: [RunningEffect]) -> String {
    "Skipped \(plural(running.count, "effect", "effects")) still running:\n\n\(effectList(running))"
  }

  static func skippedState<State>(expected: State, actual: State) -> String {
    "Skipped assertions of state changes:\n\n" + diffLines(expected: expected, actual: actual).joined(separator: "\n")
      + "\n\n" + DiffLines.legend
  }
}
