import Foundation
import Loupe
import LoupeTesting
import Testing

/// A feature for the bugs a TCA user met (issue 30): a client with only a live value, a
/// payload-less case sent by an effect, and an error kept in the state.
struct FinisherFeature: Reducer {
  struct State: Equatable {
    var number = 0
    var failure: Failure?
  }

  /// An error kept in the state, compared by its text (a TCA user's usual wrapper).
  struct Failure: Equatable {
    var error: any Error
    static func == (lhs: Self, rhs: Self) -> Bool { "\(lhs.error)" == "\(rhs.error)" }
  }
  struct Offline: Error {}
  struct Timeout: Error {}

  enum Action {
    case fetch
    case fetched(Int)
    case finish
    case finished
    case fail
    case failed(Failure)
  }

  @Dependency(\.numberClient) var numberClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .fetch:
        return .run { send in await send(.fetched(try await numberClient.fetch())) }
      case .fetched(let number):
        state.number = number
        return .none
      case .finish:
        return .send(.finished)
      case .finished:
        return .none
      case .fail:
        return .send(.failed(Failure(error: Offline())))
      case .failed(let failure):
        state.failure = failure
        return .none
      }
    }
  }
}

struct NumberClient: Sendable {
  var fetch: @Sendable () async throws -> Int
}

/// Only a live value, as in TCA's tutorial: a test sets `fetch` itself.
enum NumberClientKey: DependencyKey {
  static let liveValue = NumberClient { 42 }
}

extension DependencyValues {
  var numberClient: NumberClient {
    get { self[NumberClientKey.self] }
    set { self[NumberClientKey.self] = newValue }
  }
}

@MainActor
@Suite struct TCABugTests {
  // B1: a key set (through a read-modify of one of its fields) in withDependencies is set.
  @Test func aClientFieldSetInWithDependenciesIsNotMissing() async {
    let store = TestStore(initialState: FinisherFeature.State()) {
      FinisherFeature()
    } withDependencies: {
      $0.numberClient.fetch = { 7 }
    }
    await store.send(.fetch)
    await store.receive(FinisherFeature.Action.fetched) { $0.number = 7 }
  }

  // B1: reading a key in the closure does not count as using it; the feature's use still fails.
  @Test func aKeyOnlyReadInWithDependenciesStillFailsWhenUsed() async {
    let failures = await capturingIssues {
      let store = TestStore(initialState: FinisherFeature.State()) {
        FinisherFeature()
      } withDependencies: {
        _ = $0.numberClient
      }
      await store.send(.fetch)
      await store.receive(FinisherFeature.Action.fetched) { $0.number = 42 }
    }
    #expect(failures.map(\.message) == [
      "@Dependency(NumberClientKey) has no test value, and the feature used it under TestStore. Set it in the TestStore's withDependencies closure, or give its key a testValue."
    ])
  }

  // B2: a case path to a payload-less case matches it.
  @Test func aCasePathToAPayloadlessCaseMatches() async {
    let store = TestStore(initialState: FinisherFeature.State()) { FinisherFeature() }
    await store.send(.finish)
    await store.receive(CasePath { (_: Void) in FinisherFeature.Action.finished })
  }

  // B2: a payload-less case's constructor value is a case path too.
  @Test func aPayloadlessCaseValueIsACasePath() {
    let path = CasePath(case: FinisherFeature.Action.finished)
    #expect(path.extract(.finished) != nil)
    #expect(path.extract(.finish) == nil)
    #expect(path.extract(.fetched(1)) == nil)
  }

  // B4: a failed case-path receive names the case it expected.
  @Test func aMismatchedCasePathReceiveNamesTheCase() async {
    let store = TestStore(initialState: FinisherFeature.State()) { FinisherFeature() }
    await store.send(.finish)
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(FinisherFeature.Action.fetched)
    }
    #expect(failures == [CapturedFailure(message: """
      Received unexpected action:

        − FinisherFeature.Action.fetched(…)
        + FinisherFeature.Action.finished

      (Expected: −, Actual: +)
      """, line: line)])
  }

  // B4: an error in the state is told by its type, not rendered `{}`.
  @Test func anErrorWithoutFieldsIsToldByItsType() async {
    let store = TestStore(initialState: FinisherFeature.State()) { FinisherFeature() }
    await store.send(.fail)
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(FinisherFeature.Action.failed) { $0.failure = .init(error: FinisherFeature.Timeout()) }
    }
    #expect(failures == [CapturedFailure(message: """
      A state change does not match expectation:

          {
            number: 0
            failure: {
        −     error: "<FinisherFeature.Timeout>"
        +     error: "<FinisherFeature.Offline>"
            }
          }

      (Expected: −, Actual: +)
      """, line: line)])
  }
}
