import Loupe
import LoupeTesting
import Testing

/// An effect that takes its time on the main thread: a few steps, then 700 ms of work without
/// a suspension (as on a loaded machine, where a job waits that long for the CPU), then a few
/// more steps.
struct SlowEffectFeature: Reducer {
  struct State: Equatable {}
  enum Action: Equatable { case start }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in
      .run { _ in
        for _ in 0..<3 { await Task.yield() }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .milliseconds(700))
        while clock.now < end {}
        for _ in 0..<5 { await Task.yield() }
      }
    }
  }
}

/// When `TestStore` decides that effects have settled (issue 33, item 12): by counting what
/// they do, not by waiting for a while.
@MainActor
@Suite struct SettleTests {
  @Test func aSendWaitsForAnEffectStillWorkingHoweverLongItTakes() async {
    // It ends without sending anything: once `send` returns it has ended, and the test ends
    // with nothing running. (With a limit of 500 ms of wall time, `send` returned while it was
    // still working, and the end of the test failed on an effect still running.)
    let store = TestStore(initialState: SlowEffectFeature.State()) { SlowEffectFeature() }
    await store.send(.start)
  }

  @Test func aSendDoesNotWaitForAnEffectWaitingOnSomethingElse() async {
    // The effect waits on a stream that only the test feeds: `send` returns (the effect is
    // in flight), and `receive` waits for what it sends once fed.
    let (texts, feed) = AsyncStream.makeStream(of: String.self)
    let store = TestStore(initialState: LoaderFeature.State()) {
      LoaderFeature()
    } withDependencies: {
      $0.textClient = TextClient {
        for await text in texts { return text }
        return ""
      }
    }
    await store.send(.load) { $0.isLoading = true }
    feed.yield("Hello")
    await store.receive(.loaded("Hello")) {
      $0.isLoading = false
      $0.text = "Hello"
    }
  }
}
