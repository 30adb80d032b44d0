import Foundation
import Loupe
import Testing

@testable import LoupeExamples

/// The examples' actions and states decode from their renderings (what `loupe send` and
/// `loupe set-state` hand the program), back to equal values.
@Suite struct ExamplesDecodingTests {
  func roundTrip<T: Decodable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let text = ValueRenderer.render(value).jsonText
    let decoded = try RenderedDecoder().decode(T.self, from: JSONParser.parse(text))
    #expect(decoded == value, "\(text)", sourceLocation: sourceLocation)
  }

  @Test func pages() throws {
    for action: PageFeature.Action in [.onAppear, .onDisappear, .selected(true), .selected(false), .timerTicked] {
      try roundTrip(action)
    }
    try roundTrip(PageFeature.State(id: 2, count: 7, isSelected: true))
  }

  @Test func todos() throws {
    let actions: [TodosFeature.Action] = [
      .queryChanged("pay"), .queryChanged(""), .searchResponse([9, 4]), .searchResponse([]), .toggleDoneTapped(3),
      .renamed(3, "Buy oat milk"), .personRenamed(1, "Alicia"), .completeAllTapped(assignee: 2),
    ]
    for action in actions { try roundTrip(action) }
    var state = TodosFeature.State(database: .sample(count: 300))
    state.query = "pay"
    state.searchResults = [9, 19]
    state.isSearching = true
    try roundTrip(state)
  }

  @Test func game() throws {
    let actions: [GameFeature.Action] = [
      .counter(.incrementTapped), .counter(.decrementTapped), .counter(.playNextTapped), .timer(.start), .timer(.tick),
      .timer(.stop), .resultList(.rowsDeleted(IndexSet([0, 2]))), .resultList(.rowsDeleted(IndexSet())),
      .setNavigation(isActive: true), .alert(.saveTapped), .alert(.discardTapped), .resultsSaved,
    ]
    for action in actions { try roundTrip(action) }
    var state = GameFeature.State(secrets: .seeded(3))
    state.results.results = [
      GameResult(id: 1, secret: 3, guess: 3, timeSpent: 1.5), GameResult(id: 2, secret: -2, guess: 0, timeSpent: 0.5),
    ]
    state.resultList = state.results
    state.alert = GameFeature.SaveChangesAlert(message: "2 results changed")
    state.timer = GameTimerFeature.State(isRunning: true, duration: 2.0)
    try roundTrip(state)
    try roundTrip(GameFeature.State(secrets: .seeded(1)))
  }

  /// The label-and-value form `action.received` shows decodes too (`IdentifiedAction` from
  /// Loupe).
  @Test func identifiedActions() throws {
    let action = IdentifiedAction<Int, PageFeature.Action>.element(id: 2, action: .selected(true))
    #expect(ValueRenderer.render(action).jsonText == #"{"element":{"id":2,"action":{"selected":true}}}"#)
    try roundTrip(action)
  }
}
