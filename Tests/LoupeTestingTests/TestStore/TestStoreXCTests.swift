import Foundation
import Loupe
import LoupeTesting
import XCTest

/// `TestStore`'s failures under XCTest: the same text as under Swift Testing, at the line of
/// the call (or of `TestStore(…)` for what is left at the end).
final class TestStoreXCTests: FailureCapturingTestCase {
  @MainActor
  func makeStore(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> TestStore<LoaderFeature.State, LoaderFeature.Action> {
    TestStore(
      initialState: LoaderFeature.State(),
      reducer: { LoaderFeature() },
      withDependencies: { $0.textClient = TextClient { "Hello" } },
      fileID: fileID, filePath: filePath, line: line)
  }

  @MainActor
  func testTheTimerAsATCAUserWritesIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: StopwatchFeature.State()) {
      StopwatchFeature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 100))
      $0.clock = clock
    }
    await store.send(.start) {
      $0.started = Date(timeIntervalSince1970: 100)
    }
    await clock.advance(by: .milliseconds(35))
    await store.receive(.timeUpdated) { $0.duration = 0.01 }
    await store.receive(.timeUpdated) { $0.duration = 0.02 }
    await store.receive(.timeUpdated) { $0.duration = 0.03 }
    await store.send(.stop)
  }

  @MainActor
  func testStateMismatchAndUnexpectedChange() async {
    let store = makeStore()
    let line = #line + 3
    let failures = await capturingFailures {
      await store.send(.increment) { $0.count = 2 }
      await store.send(.increment)
    }
    XCTAssertEqual(failures, [
      CapturedFailure(message: """
        A state change does not match expectation:

            {
          −   count: 2
          +   count: 1
              … (2 unchanged)
            }

        (Expected: −, Actual: +)
        """, line: line - 1),
      CapturedFailure(message: """
        State was not expected to change, but a change occurred:

            {
          −   count: 1
          +   count: 2
              … (2 unchanged)
            }

        (Expected: −, Actual: +)
        """, line: line),
    ])
  }

  @MainActor
  func testWrongActionAndNothingToReceive() async {
    let store = makeStore()
    await store.send(.load) { $0.isLoading = true }
    let line = #line + 3
    let failures = await capturingFailures {
      await store.receive(.loaded("Goodbye")) { $0.isLoading = false }
      await store.receive(.done)
    }
    XCTAssertEqual(failures, [
      CapturedFailure(message: """
        Received unexpected action:

          − LoaderFeature.Action.loaded("Goodbye")
          + LoaderFeature.Action.loaded("Hello")

        (Expected: −, Actual: +)
        """, line: line - 1),
      CapturedFailure(message: """
        Expected to receive LoaderFeature.Action.done, but received nothing: no effect is running.
        """, line: line),
    ])
  }

  @MainActor
  func testReceiveTimeout() async {
    let store = makeStore()
    await store.send(.waitForever)
    let sendLine = #line - 1
    let line = #line + 2
    let failures = await capturingFailures {
      await store.receive(.done, timeout: .milliseconds(100))
    }
    XCTAssertEqual(failures, [CapturedFailure(message: """
      Expected to receive LoaderFeature.Action.done, but received nothing after 0.1 seconds.

      Still running:

        effect 1 of LoaderFeature#1 (LoaderFeature.swift:38), returned by LoaderFeature.Action.waitForever sent at TestStoreXCTests.swift:\(sendLine)
      """, line: line)])
    await store.skipInFlightEffects()
  }

  @MainActor
  func testWhatIsLeftAtTheEndFailsAtTheStoresLine() async {
    let storeLine = #line + 2
    let failures = await capturingFailures {
      let store = makeStore()
      await store.send(.load) { $0.isLoading = true }
      await store.send(.waitForever)
    }
    let sendLine = storeLine + 2
    XCTAssertEqual(failures, [
      CapturedFailure(message: """
        Must handle 1 received action before sending an action:

          LoaderFeature.Action.loaded("Hello")

        Receive it (store.receive(…)), skip it (store.skipReceivedActions()), or turn exhaustivity off.
        """, line: sendLine),
      CapturedFailure(message: """
        An effect is still running at the end of the test:

          effect 2 of LoaderFeature#1 (LoaderFeature.swift:38), returned by LoaderFeature.Action.waitForever sent at TestStoreXCTests.swift:\(sendLine)

        End it before the test does: send the action that cancels it, await it (store.finish(), clock.advance(by:)), or cancel it (store.skipInFlightEffects()).
        """, line: storeLine),
    ])
  }

  @MainActor
  func testActionsNotReceivedAndAMissingDependency() async {
    let storeLine = #line + 2
    let failures = await capturingFailures {
      let store = TestStore(initialState: LoaderFeature.State()) { LoaderFeature() }
      await store.send(.load) { $0.isLoading = true }
      await store.finish()
    }
    XCTAssertEqual(failures, [
      CapturedFailure(message: """
        @Dependency(TextClientKey) has no test value, and the feature used it under TestStore. Set it in the TestStore's withDependencies closure, or give its key a testValue.
        """, line: storeLine + 1),
      CapturedFailure(message: """
        The store received 1 action by the end of the test that was not asserted:

          LoaderFeature.Action.loaded("live text")

        Receive it (store.receive(…)) or skip it (store.skipReceivedActions()).
        """, line: storeLine),
    ])
  }
}
