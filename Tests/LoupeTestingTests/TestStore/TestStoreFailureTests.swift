import Loupe
import LoupeTesting
import Testing

/// Every failure of `TestStore`, as Swift Testing reports it: the text and the line.
@MainActor
@Suite struct TestStoreFailureTests {
  func makeStore(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> TestStore<LoaderFeature.State, LoaderFeature.Action> {
    TestStore(
      initialState: LoaderFeature.State(),
      reducer: { LoaderFeature() },
      withDependencies: { $0.textClient = TextClient { "Hello" } },
      fileID: fileID, filePath: filePath, line: line)
  }

  @Test func aStateChangeThatDoesNotMatchShowsTheDiff() async {
    let store = makeStore()
    let line = #line + 2
    let failures = await capturingIssues {
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(failures == [CapturedFailure(message: """
      A state change does not match expectation:

          {
        −   count: 2
        +   count: 1
            … (2 unchanged)
          }

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func aChangeWithoutAClosureIsUnexpected() async {
    let store = makeStore()
    let line = #line + 2
    let failures = await capturingIssues {
      await store.send(.increment)
    }
    #expect(failures == [CapturedFailure(message: """
      State was not expected to change, but a change occurred:

          {
        −   count: 0
        +   count: 1
            … (2 unchanged)
          }

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func theWrongActionReceivedShowsBoth() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(.loaded("Goodbye")) { $0.isLoading = false }
    }
    #expect(failures == [CapturedFailure(message: """
      Received unexpected action:

        − LoaderFeature.Action.loaded("Goodbye")
        + LoaderFeature.Action.loaded("Hello")

      (Expected: −, Actual: +)
      """, line: line)])
    // The receive lets the effect end (it sent its only action), but only for a moment: on a
    // machine whose main queue is busy with other tests it may still be returning. This test
    // is about the message, not about that.
    await store.skipInFlightEffects()
  }

  @Test func receivingWhenNothingCanComeFailsAtOnce() async {
    let store = makeStore()
    await store.send(.increment) { $0.count = 1 }
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(.done)
    }
    #expect(failures == [CapturedFailure(message: """
      Expected to receive LoaderFeature.Action.done, but received nothing: no effect is running.
      """, line: line)])
  }

  @Test func aReceiveTimesOutNamingWhatStillRuns() async {
    let store = makeStore()
    let sendLine = #line + 1
    await store.send(.waitForever)
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(.done, timeout: .milliseconds(100))
    }
    #expect(failures == [CapturedFailure(message: """
      Expected to receive LoaderFeature.Action.done, but received nothing after 0.1 seconds.

      Still running:

        effect 1 of LoaderFeature#1 (LoaderFeature.swift:38), returned by LoaderFeature.Action.waitForever sent at TestStoreFailureTests.swift:\(sendLine)
      """, line: line)])
    await store.skipInFlightEffects()
  }

  @Test func actionsNotReceivedFailAtTheEnd() async {
    let storeLine = #line + 2
    let failures = await capturingIssues {
      let store = makeStore()
      await store.send(.load) { $0.isLoading = true }
      await store.finish()
    }
    #expect(failures == [CapturedFailure(message: """
      The store received 1 action by the end of the test that was not asserted:

        LoaderFeature.Action.loaded("Hello")

      Receive it (store.receive(…)) or skip it (store.skipReceivedActions()).
      """, line: storeLine)])
  }

  @Test func aDependencyWithoutATestValueFailsNamingItsKey() async {
    let store = TestStore(initialState: LoaderFeature.State()) { LoaderFeature() }
    let sendLine = #line + 3
    let receiveLine = #line + 3
    let failures = await capturingIssues {
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded("live text")) {
        $0.isLoading = false
        $0.text = "live text"
      }
    }
    // Reported at the first assertion after the effect used it: the send when the effect ran
    // while `send` let it settle, else the receive (on a busy machine the effect can start
    // later than that moment).
    let message = """
      @Dependency(TextClientKey) has no test value, and the feature used it under TestStore. Set it in the TestStore's withDependencies closure, or give its key a testValue.
      """
    #expect(failures.map(\.message) == [message])
    #expect([sendLine, receiveLine].contains(failures.first?.line ?? 0))
  }

  @Test func finishWaitsForTheChainAndPasses() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    await store.finish()
    await store.receive(.loaded("Hello")) {
      $0.isLoading = false
      $0.text = "Hello"
    }
  }

  @Test func receiveMatchesACaseWithAnyPayload() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    await store.receive(LoaderFeature.Action.loaded) {
      $0.isLoading = false
      $0.text = "Hello"
    }
  }

  @Test func exhaustivityOffChecksOnlyWhatIsStated() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.increment)
    await store.send(.load)
    await store.receive(.loaded("Hello")) { $0.text = "Hello" }
    #expect(store.state == LoaderFeature.State(count: 1, isLoading: false, text: "Hello"))
  }

  @Test func theStoreIsARecorderToo() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    await store.receive(.loaded("Hello")) {
      $0.isLoading = false
      $0.text = "Hello"
    }
    store.recorder.expect([
      .action(LoaderFeature.Action.load),
      .effectStarted(),
      .action(LoaderFeature.Action.loaded("Hello"), origin: .effect),
      .effectFinished(),
    ], kinds: ["action.*", "effect.*"])
    store.recorder.assertNoEffectLeftRunning()
  }
}
