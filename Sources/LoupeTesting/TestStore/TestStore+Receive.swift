import Loupe
import LoupeCore

extension TestStore {
  /// Asserts that an effect sent `expected` (the next action received, when exhaustive) and
  /// how the state changed. Waits for it: the effects run until they send it, end, or all
  /// sleep on the test clock (then nothing more can come until the clock moves: it fails at
  /// once), or ``timeout`` (or `timeout`) passes. Then lets the effects settle (see
  /// `settle()`: counted, not timed).
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async where Action: Equatable {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      TestStoreMessages.label(expected), matching: { $0 == expected }, timeout: timeout, assert: assert, at: site,
      mismatch: { TestStoreMessages.unexpectedAction(expected: expected, actual: $0) })
  }

  /// Asserts that an effect sent an action of the case `casePath` (any payload) and how the
  /// state changed: `await store.receive(CasePath(Action.loaded)) { $0.text = "Hello" }`.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let name = TestStoreMessages.caseName(casePath)
    await receive(
      name, matching: { casePath.extract($0) != nil }, timeout: timeout, assert: assert, at: site,
      mismatch: { TestStoreMessages.unexpectedAction(expectedCase: name, actual: $0) })
  }

  /// Asserts that an effect sent an action of the case whose constructor is `embed`, with any
  /// payload: `await store.receive(Action.loaded) { $0.text = "Hello" }`.
  public func receive<Value>(
    _ embed: @escaping (Value) -> Action,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      CasePath(embed), timeout: timeout, assert: assert, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  func receive(
    _ description: String,
    matching: (Action) -> Bool,
    timeout: Duration?,
    assert: ((inout State) throws -> Void)?,
    at site: CallSite,
    mismatch: (Action) -> String
  ) async {
    reportIssues(at: site)
    let limit = timeout ?? self.timeout
    while true {
      if exhaustivity == .on, let first = received.first {
        received.removeFirst()
        guard matching(first.action) else {
          FailureReporter.fail(mismatch(first.action), at: site)
          state = first.new
          await settle()  // as after a match: the effect that sent it may be ending
          return
        }
        checkState(first, assert: assert, at: site)
        await settle()
        reportIssues(at: site)
        return
      }
      if exhaustivity != .on, let index = received.firstIndex(where: { matching($0.action) }) {
        let skipped = received[..<index].map(\.action)
        if !skipped.isEmpty, exhaustivity.showsSkippedAssertions {
          FailureReporter.skipped(TestStoreMessages.skippedReceived(skipped), at: site)
        }
        let match = received[index]
        received.removeFirst(index + 1)
        checkState(match, assert: assert, at: site)
        await settle()
        reportIssues(at: site)
        return
      }
      let count = received.count
      switch await waitForActivity(limit: limit, until: { self.received.count > count }) {
      case .arrived:
        continue
      case .settled:
        FailureReporter.fail(TestStoreMessages.nothingToReceive(description, running: runningEffects()), at: site)
        return
      case .timedOut:
        FailureReporter.fail(TestStoreMessages.receiveTimeout(description, after: limit, running: runningEffects()), at: site)
        return
      }
    }
  }

  // MARK: Waiting

  /// Waits until an action arrives, every effect on the test clock is asleep or has ended,
  /// or `limit` passes — whichever comes first.
  func waitForActivity(
    limit: Duration, until done: @escaping @MainActor () -> Bool, also task: StoreTask? = nil
  ) async -> WaitSignal.Outcome {
    if done() { return .arrived }
    let signal = WaitSignal()
    let previous = arrival
    arrival = signal
    defer { arrival = previous }
    let timer = Task { @MainActor in
      try? await Task.sleep(for: limit)
      signal.fire(.timedOut)
    }
    defer { timer.cancel() }
    if effectsOnTestClock {
      let clock = self.clock
      Task { @MainActor in
        await clock.waitUntilEffectsSettle()
        signal.fire(.settled)
      }
    }
    if let task {
      Task { @MainActor in
        await task.finish()
        signal.fire(.arrived)
      }
    }
    let outcome = await signal.wait()
    // An action delivered in the same turn as the settling counts.
    return done() ? .arrived : outcome
  }
}

/// A one-shot signal on the main actor: the first `fire` wins.
@MainActor
final class WaitSignal {
  enum Outcome { case arrived, settled, timedOut }
  private var continuation: CheckedContinuation<Outcome, Never>?
  private var fired: Outcome?

  func fire(_ outcome: Outcome) {
    guard fired == nil else { return }
    fired = outcome
    continuation?.resume(returning: outcome)
    continuation = nil
  }

  func wait() async -> Outcome {
    if let fired { return fired }
    return await withCheckedContinuation { continuation = $0 }
  }
}
