import LoupeCore
import Testing
@testable import LoupeSession

/// Rebuilding a state from a trace without snapshots (CONTRACT §10, version 1 traces).
@Suite struct StatePlacementTests {
  func change(_ seq: Int, _ store: String, _ path: String, _ old: JSON?, _ new: JSON) -> Event {
    Event(
      seq: seq, time: Double(seq),
      payload: .stateChanged(StateChanged(store: store, cause: seq - 1, changes: [Change(path: path, op: .replace, old: old, new: new)], summary: "")))
  }

  @Test func changesOfScopedStoresLandWhereTheirPathsSayAndTheStateIsApproximate() {
    let model = SessionModel()
    model.append(change(2, "App#1/pages[id: 1]", "count", 0, 1))
    model.append(change(4, "App#1/pages[id: 2]", "count", 0, 5))
    model.append(change(6, "App#1/pages[id: 1]", "count", 1, 2))
    model.append(change(8, "App#1", "settings[\"theme\"]", nil, "dark"))
    let state = model.state(of: "App#1", at: 3)
    #expect(state?.value == ["pages": [["id": 1, "count": 2], ["id": 2, "count": 5]], "settings": ["theme": "dark"]])
    #expect(state?.approximate == true)
    #expect(model.state(of: "App#1/pages[id: 2]", at: 1)?.value == ["id": 2, "count": 5])
    #expect(model.state(of: "App#1/pages[id: 1]", at: 0)?.value == ["id": 1, "count": 1])
  }

  /// An identified element whose list no change wrote before: the list is made an array (it
  /// was made an object, and the element dropped).
  @Test func anElementOfAListNeverWrittenMakesTheListAnArray() {
    let model = SessionModel()
    model.append(change(2, "App#1", "todos[id: 3]", nil, ["id": 3, "title": "milk"]))
    model.append(change(4, "App#1", "sections[id: 1].rows[id: 7]", nil, ["id": 7]))
    model.append(change(6, "App#1", "settings[\"theme\"]", nil, "dark"))
    #expect(
      model.state(of: "App#1", at: 2)?.value
        == [
          "todos": [["id": 3, "title": "milk"]], "sections": [["id": 1, "rows": [["id": 7]]]],
          "settings": ["theme": "dark"],
        ])
  }
}
