import Foundation
import Loupe
import LoupeTesting
import Testing

/// A feature spelled as in TCA, with case key paths and an Action that is not `Equatable`.
struct FactFeature: Reducer {
  struct State: Equatable {
    var fact: String?
    var ticks = 0
    var rows: IdentifiedArrayOf<RowFeature.State> = []
  }

  enum Action: CasePathable {
    case factButtonTapped
    case factResponse(Result<String, any Error>)
    case timerTicked
    case rows(IdentifiedActionOf<RowFeature>)

    struct AllCasePaths: CasePathList {
      let factButtonTapped = CasePath(case: Action.factButtonTapped)
      let factResponse = CasePath(Action.factResponse)
      let timerTicked = CasePath(case: Action.timerTicked)
      let rows = CasePath(Action.rows)
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .factButtonTapped:
        return .run { send in
          await send(.factResponse(Result { try await Self.fetch() }))
          await send(.timerTicked)
        }
      case .factResponse(.success(let fact)):
        state.fact = fact
        return .none
      case .factResponse(.failure):
        return .none
      case .timerTicked:
        state.ticks += 1
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) { RowFeature() }
  }

  @Sendable static func fetch() async throws -> String { "0 is a number" }
}

struct RowFeature: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var count = 0
  }
  enum Action: CasePathable {
    case addRowButtonTapped
    case renamed(String)

    struct AllCasePaths: CasePathList {
      let addRowButtonTapped = CasePath(case: Action.addRowButtonTapped)
      let renamed = CasePath(Action.renamed)
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addRowButtonTapped: state.count += 1
    case .renamed: break
    }
    return .none
  }
}

@MainActor
@Suite struct CaseKeyPathTests {
  @Test func receiveNestedCasesOnANonEquatableAction() async {
    let store = TestStore(initialState: FactFeature.State()) { FactFeature() }
    await store.send(\.factButtonTapped)
    await store.receive(\.factResponse.success) { $0.fact = "0 is a number" }
    await store.receive(\.timerTicked) { $0.ticks = 1 }
  }

  @Test func receiveAPayloadAtACaseKeyPath() async {
    let store = TestStore(initialState: FactFeature.State()) { FactFeature() }
    await store.send(\.factButtonTapped)
    await store.receive(\.factResponse.success, "0 is a number") { $0.fact = "0 is a number" }
    await store.receive(\.timerTicked) { $0.ticks = 1 }
  }

  @Test func sendToAnElementByID() async {
    let store = TestStore(initialState: FactFeature.State(rows: [.init(id: 1), .init(id: 2)])) { FactFeature() }
    await store.send(\.rows[id: 2].addRowButtonTapped) { $0.rows[id: 2]?.count = 1 }
    await store.send(\.rows[id: 1].renamed, "Milk")
  }

  @Test func aMismatchNamesTheWholePath() async {
    let store = TestStore(initialState: FactFeature.State()) { FactFeature() }
    await store.send(\.factButtonTapped)
    let line = #line + 2
    let failures = await capturingIssues {
      await store.receive(\.factResponse.failure)
    }
    #expect(failures == [CapturedFailure(message: """
      Received unexpected action:

        − FactFeature.Action.factResponse.failure(…)
        + FactFeature.Action.factResponse(.success("0 is a number"))

      (Expected: −, Actual: +)
      """, line: line)])
    await store.receive(\.timerTicked) { $0.ticks = 1 }
  }

  @Test func composedCasePathsEmbedAndExtract() {
    let path = FactFeature.Action.casePath(\.rows[id: 2].renamed)
    #expect(path._caseName == "rows[id: 2].renamed")
    guard case .rows(.element(id: 2, action: .renamed("x"))) = path.embed("x") else {
      Issue.record("embedded the wrong action")
      return
    }
    #expect(path.extract(.rows(.element(id: 2, action: .renamed("y")))) == "y")
    #expect(path.extract(.rows(.element(id: 1, action: .renamed("y")))) == nil)
    #expect(path.extract(.timerTicked) == nil)
  }
}
