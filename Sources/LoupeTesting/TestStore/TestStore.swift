import Foundation
import Loupe
import LoupeCore

/// A store for tests, in the shape of TCA's `TestStore`: send actions and say how the state
/// changed, receive the actions effects send back, on a ``TestClock``, and fail on anything
/// not asserted.
///
/// ```swift
/// @MainActor @Test func timer() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: TimerFeature.State()) {
///     TimerFeature()
///   } withDependencies: {
///     $0.clock = clock
///   }
///   await store.send(.start) { $0.isRunning = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.tick) { $0.ticks = 1 }
///   await store.send(.stop) { $0.isRunning = false }
/// }
/// ```
///
/// Exhaustive by default (``exhaustivity``): a state change the closure does not state, an
/// action an effect sent that is not received, and an effect still running when the store
/// goes away (at the end of the test) all fail the test — at the line of the `send` or
/// `receive`, or of the `TestStore(…)` for what is left at the end — with a −/+ diff of the
/// expected (−) and actual (+) state.
///
/// It is a recorder too: its store reports to ``recorder``, so one test can assert the
/// state and the diagnostic stream (``expect(_:kinds:stores:exhaustivity:fileID:filePath:line:column:)``,
/// ``assertNoEffectCancelledByAnotherStore(fileID:filePath:line:column:)``, …).
///
/// Its store's effects run on its ``clock`` (a ``TestClock`` unless the dependencies set
/// another clock), one at a time on the main thread: call it from `@MainActor` tests.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// The recorder the store reports to: every event of this test's stores.
  public let recorder: DiagnosticRecorder
  /// The store under test (for `scope`, derived values and identities).
  public let store: Store<State, Action>
  /// The clock the store's effects see (`send.clock`, `@Dependency(\.clock)`).
  public let clock: TestClock
  /// How strict the assertions are: `.on` (default), `.off`, `.off(showSkippedAssertions: true)`.
  public var exhaustivity: Exhaustivity = .on
  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)`` and ``finish(timeout:fileID:filePath:line:column:)``
  /// wait for effects that wait on something other than the test clock (a failure guard:
  /// effects asleep on the test clock are known not to send anything, and fail at once).
  public var timeout: Duration = .seconds(1)

  /// The state after the last asserted action (or skipped ones).
  public internal(set) var state: State

  struct Processed {
    let action: Action
    let old: State
    let new: State
  }

  /// Actions sent by effects, not yet received, in order.
  var received: [Processed] = []
  /// The action the test's current `send` processed.
  var sent: Processed?
  /// The sends of the test, with what they started.
  var tasks: [StoreTask] = []
  let site: CallSite
  let issues = PendingIssues()
  /// Whether effects run on ``clock`` (else waiting cannot tell that nothing will come).
  let effectsOnTestClock: Bool
  var arrival: WaitSignal?
  /// How many actions the store has processed (sent by the test or by effects).
  var actionsProcessed = 0

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Sets the dependencies for the test (`$0.date = .constant(…)`,
  ///     `$0.clock = clock`). Keys it does not set take their `testValue`; a key without one
  ///     fails the test, naming it, when the feature uses it.
  public init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let recorder = DiagnosticRecorder()
    let ownClock = TestClock()
    var chosenClock: (any Clock<Duration>)?
    let issues = self.issues
    let store = Store(initialState: initialState, bus: recorder.bus, reducer: reducer) { values in
      values.context = .test
      values.clock = ownClock
      prepareDependencies(&values)
      // After the closure: what it reads or sets (`$0.client.fetch = …` reads the client
      // first) is not a use by the feature.
      values.reportMissingTestValue = { key in issues.add(key) }
      values.reportIssue = { message in issues.add(message: message) }
      chosenClock = values.clock
    }
    self.recorder = recorder
    self.store = store
    self.clock = (chosenClock as? TestClock) ?? ownClock
    self.effectsOnTestClock = chosenClock is TestClock
    self.state = initialState
    self.site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    store._observeActions { [weak self] action, sentByProgram, old, new in
      guard let self else { return }
      self.actionsProcessed += 1
      let processed = Processed(action: action, old: old, new: new)
      if sentByProgram {
        self.sent = processed
      } else {
        self.received.append(processed)
        self.arrival?.fire(.arrived)
      }
    }
  }

  // Not `isolated deinit`: that one may run later as a job of its own, outside the test's
  // task, where Swift Testing no longer knows which test to fail. A plain deinit runs where
  // the last reference goes away: at the end of the test, in its task, on the main actor
  // (TestStore is for `@MainActor` tests: releasing it elsewhere traps).
  nonisolated deinit {
    MainActor.assumeIsolated { self.complete() }
  }

  // MARK: Sending

  /// Sends `action` and asserts how the state changed: `assert` mutates the state before the
  /// action into the state expected after it (no closure: the state must not change).
  ///
  /// Fails when actions sent by effects have not been received yet (exhaustive), or when the
  /// state after the action is not the expected one.
  @discardableResult
  public func send(
    _ action: Action,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reportIssues(at: site)
    if !received.isEmpty {
      if exhaustivity == .on {
        FailureReporter.fail(TestStoreMessages.mustReceiveBeforeSending(received.map(\.action)), at: site)
      } else if exhaustivity.showsSkippedAssertions {
        FailureReporter.skipped(TestStoreMessages.skippedReceived(received.map(\.action)), at: site)
      }
      if let last = received.last { state = last.new }
      received.removeAll()
    }
    sent = nil
    let task = store.send(action, fileID: fileID, filePath: filePath, line: line)
    tasks.append(task)
    guard let processed = sent else {
      FailureReporter.fail("\(TestStoreMessages.label(action)) was not processed: the store has ended.", at: site)
      return TestStoreTask(rawValue: task)
    }
    sent = nil
    checkState(processed, assert: assert, at: site)
    await settle()
    reportIssues(at: site)
    return TestStoreTask(rawValue: task)
  }

  /// Compares the state after `processed` with the expected one and moves ``state`` on.
  func checkState(_ processed: Processed, assert: ((inout State) throws -> Void)?, at site: CallSite) {
    defer { state = processed.new }
    // Exhaustive: from the state before, the closure must produce the whole new state. Not
    // exhaustive: applied to the new state, it must change nothing (only what it states is
    // checked).
    var expected = exhaustivity == .on ? processed.old : processed.new
    do {
      try assert?(&expected)
    } catch {
      FailureReporter.fail("The assertion closure threw: \(error)", at: site)
      return
    }
    if expected != processed.new {
      FailureReporter.fail(TestStoreMessages.stateMismatch(
        expected: expected, actual: processed.new, hadClosure: assert != nil), at: site)
    } else if exhaustivity == .on, assert != nil, processed.new == processed.old {
      FailureReporter.fail(TestStoreMessages.noChange, at: site)
    }
    if exhaustivity.showsSkippedAssertions {
      var exhaustive = processed.old
      try? assert?(&exhaustive)
      if exhaustive != processed.new {
        FailureReporter.skipped(TestStoreMessages.skippedState(expected: exhaustive, actual: processed.new), at: site)
      }
    }
  }

  /// Reports the dependencies used without a test value, and the issues the feature reported
  /// (`reportIssue`, `unimplemented`), since the last report.
  func reportIssues(at site: CallSite) {
    for message in issues.take() { FailureReporter.fail(message, at: site) }
  }

  /// The dependencies the store's reducer, and the effects it starts from now on, see:
  /// change them between the steps of a test (`store.dependencies.uuid = .constant(…)`).
  public var dependencies: DependencyValues {
    get { store._dependencies }
    set { store._dependencies = newValue }
  }
}

/// Dependency keys used without a test value and issues reported, as failure messages for the
/// next assertion.
final class PendingIssues: Sendable {
  private let messages = Lock<[String]>([])
  /// A key used without a test value (each key once).
  func add(_ key: String) {
    let message = TestStoreMessages.missingTestValue(key)
    messages.withLock { if !$0.contains(message) { $0.append(message) } }
  }
  /// An issue the feature reported.
  func add(message: String) { messages.withLock { $0.append(message) } }
  func take() -> [String] { messages.withLock { messages in defer { messages = [] }; return messages } }
}

extension Exhaustivity {
  var showsSkippedAssertions: Bool {
    if case .off(showSkippedAssertions: true) = self { true } else { false }
  }
}
