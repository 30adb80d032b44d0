import LoupeCore
import LoupeSession
import Testing

@testable import LoupeCLI

/// A burst longer than the adapter reports one by one still tells the editor which store
/// threads started and exited: each store's net change over the burst, the latest first kept.
@Suite struct SkippedThreadsTests {
  static func model(_ payloads: [Event.Payload]) -> SessionModel {
    let model = SessionModel()
    for (offset, payload) in payloads.enumerated() { model.append(Event(seq: offset + 1, time: Double(offset), payload: payload)) }
    return model
  }

  static func created(_ store: String) -> Event.Payload {
    .storeCreated(StoreCreated(store: store, type: "Row", parent: nil, identity: store))
  }

  static func destroyed(_ store: String) -> Event.Payload {
    .storeDestroyed(StoreDestroyed(store: store, identity: store))
  }

  static func action(_ store: String) -> Event.Payload {
    .actionReceived(ActionReceived(store: store, action: "Row.Action.tick", value: "tick", origin: .send))
  }

  @Test func eachStoresNetChangeInTheOrderOfItsLastLifecycleEvent() {
    let model = Self.model([
      /* 0 */ Self.created("Old#1"),
      /* 1 */ Self.created("A#1"),
      /* 2 */ Self.created("B#1"),
      /* 3 */ Self.action("A#1"),
      /* 4 */ Self.destroyed("Old#1"),  // alive before the burst, ended in it
      /* 5 */ Self.created("Brief#1"),
      /* 6 */ Self.destroyed("Brief#1"),  // began and ended within: nothing to say
      /* 7 */ Self.destroyed("A#1"),
      /* 8 */ Self.created("A#1"),  // ended and came back: alive at the end
      /* 9 */ .mark(Mark(label: "end")),
    ])
    let changes = SkippedThreads.changes(in: 1..<10, of: model)
    #expect(changes.map(\.store) == ["B#1", "Old#1", "A#1"])
    #expect(changes.map(\.started) == [true, false, true])
    // At most `limit`, the latest kept.
    #expect(SkippedThreads.changes(in: 1..<10, of: model, limit: 2).map(\.store) == ["Old#1", "A#1"])
    #expect(SkippedThreads.changes(in: 3..<4, of: model).isEmpty)
  }
}
