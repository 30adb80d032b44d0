import Loupe
import LoupeCore

extension TestStore {
  /// Waits until every effect the test's actions started, and the effects of the actions
  /// those sent, has ended. Fails when some are asleep on the test clock (they cannot end
  /// before it moves) or still running after `timeout` (``timeout`` by default), naming them.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let limit = timeout ?? self.timeout
    while let pending = tasks.first(where: { !$0.hasFinished }) {
      let outcome = await waitForActivity(limit: limit, until: { pending.hasFinished }, also: pending)
      switch outcome {
      case .arrived:
        continue
      case .settled:
        if pending.hasFinished { continue }
        FailureReporter.fail(TestStoreMessages.effectsAsleep(runningEffects()), at: site)
        return
      case .timedOut:
        FailureReporter.fail(TestStoreMessages.finishTimeout(runningEffects(), after: limit), at: site)
        return
      }
    }
    tasks.removeAll()
    reportIssues(at: site)
  }

  /// Drops the actions effects sent that were not received yet (exhaustive tests then pass
  /// without receiving them). With `.off(showSkippedAssertions: true)` they are listed.
  public func skipReceivedActions(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    guard let last = received.last else { return }
    if exhaustivity.showsSkippedAssertions {
      FailureReporter.skipped(TestStoreMessages.skippedReceived(received.map(\.action)), at: site)
    }
    state = last.new
    received.removeAll()
  }

  /// Cancels the effects still running, so an exhaustive test can end with them.
  public func skipInFlightEffects(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let running = runningEffects()
    if !running.isEmpty, exhaustivity.showsSkippedAssertions {
      FailureReporter.skipped(TestStoreMessages.skippedEffects(running), at: site)
    }
    for task in tasks { task.cancel() }
    tasks.removeAll()
  }

  /// The effects started and not ended, as the stream tells them: id, store, where each was
  /// created and which action (and where it was sent) returned it.
  func runningEffects() -> [RunningEffect] {
    let ledger = EffectLedger(recorder.events)
    return ledger.running.map { entry in
      var cause: ActionReceived?
      if let event = ledger.actions[entry.info.cause], case .actionReceived(let action) = event.payload { cause = action }
      return RunningEffect(effect: entry.info, cause: cause)
    }
  }

  /// The end of the test (the store is released): in an exhaustive test, actions not
  /// received and effects still running fail at the line of `TestStore(…)`. Effects are
  /// cancelled either way.
  func complete() {
    reportIssues(at: site)
    if exhaustivity == .on {
      if !received.isEmpty {
        FailureReporter.fail(TestStoreMessages.unreceivedAtEnd(received.map(\.action)), at: site)
      }
      let running = runningEffects()
      if !running.isEmpty {
        FailureReporter.fail(TestStoreMessages.effectsStillRunning(running), at: site)
      }
    }
    store.invalidate()
  }
}

/// An effect still running, for failure messages.
struct RunningEffect {
  let effect: EffectStarted
  /// The action whose reducer returned it.
  let cause: ActionReceived?
}
