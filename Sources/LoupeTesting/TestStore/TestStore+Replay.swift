import Foundation
import LoupeCore
import LoupeSession

extension TestStore where Action: Decodable {
  /// Replays a recording's user actions through this store and fails at the first state that
  /// differs from the recorded one: a regression test written by a bug report.
  ///
  /// ```swift
  /// @MainActor @Test func bug1234() async {
  ///   let store = TestStore(initialState: TodosFeature.State(database: .sample(count: 20))) {
  ///     TodosFeature()
  ///   }
  ///   await store.replay("Fixtures/bug-1234.loupe")
  /// }
  /// ```
  ///
  /// The actions are those the recorded program sent itself to the root store (origin
  /// `send`), decoded from their rendered form (`action.received`'s `value`, protocol/values.md
  /// "Decoding the rendered form"). Between two actions the test clock advances by the time
  /// that passed between them in the recording, so effects answer as they did; what effects
  /// send is received without assertions (the replay runs with ``exhaustivity`` off, and puts
  /// it back after; effects still running at the end are left to the test). Before each action (once the clock has advanced) and after it, this
  /// store's state, rendered, must equal the recording's state of its root store at that
  /// moment (CONTRACT §10), where `"<redacted>"` in the recording matches anything.
  ///
  /// - Parameters:
  ///   - path: The trace, absolute or relative to the test file's directory.
  ///   - store: The recorded root store to replay (`TodosFeature#1`); by default the only
  ///     root store the recording's user actions went to.
  ///   - until: Replay only actions up to this `seq`.
  public func replay(
    _ path: String, store recordedStore: String? = nil, until: Int? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let savedExhaustivity = exhaustivity
    exhaustivity = .off
    await replaySteps(path, store: recordedStore, until: until, fileID: fileID, filePath: filePath, line: line, column: column)
    // What effects sent is the recording's business, not the test's (effects still running
    // are left to it: `finish()` or `skipInFlightEffects()`).
    await skipReceivedActions(fileID: fileID, filePath: filePath, line: line, column: column)
    exhaustivity = savedExhaustivity
  }

  private func replaySteps(
    _ path: String, store recordedStore: String?, until: Int?,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let resolved = FixturePath.resolve(path, relativeTo: filePath)
    let model: SessionModel
    do {
      model = try SessionModel(tracePath: resolved)
    } catch {
      return FailureReporter.fail("Cannot replay \(path): \(error)", at: site)
    }
    let all = ActionReplay(model: model, until: until)
    let roots = Set(all.steps.map(\.root))
    guard let root = recordedStore ?? (roots.count == 1 ? roots.first : nil) else {
      let named = roots.sorted().joined(separator: ", ")
      return FailureReporter.fail(
        roots.isEmpty
          ? "Cannot replay \(path): it has no action with origin send\(until.map { " up to #\($0)" } ?? "")."
          : "Cannot replay \(path): its actions go to several root stores (\(named)); name one with 'store:'.",
        at: site)
    }
    let steps = all.steps.filter { $0.root == root }
    if let scoped = steps.first(where: { $0.store != root }) {
      return FailureReporter.fail(
        "Cannot replay \(path): #\(scoped.seq) \(scoped.action) was sent to the scoped store \(scoped.store); a TestStore replays actions sent to its root store (\(root)).",
        at: site)
    }
    guard !steps.isEmpty else {
      return FailureReporter.fail("Cannot replay \(path): no action with origin send went to \(root).", at: site)
    }
    if let recorded = all.initialStates[root],
      let difference = ActionReplay.firstDifference(expected: recorded.value, actual: ValueRenderer.render(state))
    {
      return FailureReporter.fail(
        "Replaying \(path): the state before the first action differs from the recording's:\n  \(ActionReplay.describe(difference))",
        at: site)
    }
    var previousTime: Double?
    for (number, step) in steps.enumerated() {
      if let previousTime, step.time > previousTime {
        await clock.advance(by: .microseconds(Int64(((step.time - previousTime) * 1000).rounded())))
      }
      previousTime = step.time
      // What effects did since the previous action (on the test clock, exactly).
      if number > 0, let before = step.before,
        let difference = ActionReplay.firstDifference(expected: before.value, actual: ValueRenderer.render(store.state))
      {
        return FailureReporter.fail(
          "Replaying \(path): before #\(step.seq) \(step.action) (action \(number + 1) of \(steps.count)), after what effects did since the previous action, the state differs from the recording's (at #\(step.seq - 1)):\n  \(ActionReplay.describe(difference))",
          at: site)
      }
      let action: Action
      do {
        action = try RenderedDecoder().decode(Action.self, from: step.value)
      } catch {
        return FailureReporter.fail("Replaying \(path): #\(step.seq)'s action does not decode: \(error)", at: site)
      }
      await send(action, fileID: fileID, filePath: filePath, line: line, column: column)
      guard let expected = step.expected else { continue }
      if let difference = ActionReplay.firstDifference(expected: expected.value, actual: ValueRenderer.render(state)) {
        return FailureReporter.fail(
          "Replaying \(path): after #\(step.seq) \(step.action) (action \(number + 1) of \(steps.count)), the state differs from the recording's (at #\(step.expectedSeq)):\n  \(ActionReplay.describe(difference))",
          at: site)
      }
    }
  }
}
