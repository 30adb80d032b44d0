import Testing
@testable import Loupe
@testable import LoupeCore

/// ``Event/approximateBytes`` of a `state.changed`, counted by hand from ``EventMemory``'s
/// figures: its changes are read where they lie, each with its path and its values (an
/// absent `old` or `new` counts nothing).
@Suite struct EventMemoryTests {
  @Test func aStateChangedCountsEveryChangesPathAndValues() {
    let title: JSON = .string("a long title, 20 B..")  // 20 bytes: 24 + 20 + 48
    let event = Event(seq: 1, time: 0, payload: .stateChanged(StateChanged(
      store: "RowsFeature#1", cause: 1,
      changes: [
        Change(path: "rows[id: 7].isDone", op: .replace, old: false, new: true),  // 64 + (18 + 48) + 24 + 24
        Change(path: "selection", op: .insert, new: 3),  // 64 + 0 (a small string) + 24
        Change(path: "items[id: 1]", op: .remove, old: .object(["title": title])),  // 64 + 0 + (24 + 32 + 92)
      ],
      summary: "RowsFeature#1: rows changed.")))  // 128 + 0 + (28 + 48) + 32
    #expect(event.approximateBytes == 236 + 178 + 88 + 212)
    let none = Event(seq: 2, time: 0, payload: .stateChanged(StateChanged(store: "S#1", cause: 1, changes: [], summary: "")))
    #expect(none.approximateBytes == 128 + 32)
  }
}
