import Testing
@testable import LoupeCore
@testable import LoupeSession

/// The one store-lifetime tracker the session model, the trace state index and the catalog
/// share: lives, identities at a moment, the stores alive in order of creation.
@Suite struct StoreLifetimesTests {
  static func created(_ store: String, parent: String? = nil, identity: String) -> Event {
    Event(seq: 0, time: 0, payload: .storeCreated(StoreCreated(store: store, type: "T", parent: parent, identity: identity)))
  }
  static func destroyed(_ store: String) -> Event {
    Event(seq: 0, time: 0, payload: .storeDestroyed(StoreDestroyed(store: store, identity: store)))
  }
  static func identity(_ store: String, _ identity: String) -> Event {
    Event(seq: 0, time: 0, payload: .identityChanged(IdentityChanged(store: store, identity: identity, previous: nil, reason: .replaced)))
  }

  @Test func livesIdentitiesAndOrder() {
    var lifetimes = StoreLifetimes()
    var applied: [Bool] = []
    applied.append(lifetimes.apply(Self.created("A", identity: "a1"), at: 1))
    applied.append(lifetimes.apply(Self.created("B", parent: "A", identity: "b1"), at: 2))
    applied.append(lifetimes.apply(Self.identity("B", "b2"), at: 3))
    applied.append(lifetimes.apply(Self.destroyed("A"), at: 4))
    applied.append(lifetimes.apply(Self.created("A", identity: "a2"), at: 5))
    applied.append(lifetimes.apply(Event(seq: 0, time: 0, payload: .mark(Mark(label: "m"))), at: 6))
    #expect(applied == [true, true, true, true, true, false])

    #expect(lifetimes.lives(of: "A") == [StoreLife(created: 1, destroyed: 4), StoreLife(created: 5, destroyed: nil)])
    #expect(lifetimes.isAlive("A", at: 4) == false)
    #expect(lifetimes.isAlive("A", at: 3) == true)
    #expect(lifetimes.isAlive("C", at: 3) == nil)
    #expect(lifetimes.stores(at: 2).map(\.identity) == ["a1", "b1"])
    #expect(lifetimes.stores(at: 3).map(\.identity) == ["a1", "b2"])
    // A created again comes after B, which lived on.
    #expect(lifetimes.stores(at: 5).map(\.id) == ["B", "A"])
    #expect(lifetimes.info(of: "B")?.parent == "A")
  }

  /// A store created again before its end starts a new life where the open one ends, so
  /// its `store.destroyed` ends it for good.
  @Test func createdAgainEndsTheOpenLife() {
    var lifetimes = StoreLifetimes()
    lifetimes.apply(Self.created("A", identity: "a1"), at: 1)
    lifetimes.apply(Self.created("A", identity: "a2"), at: 2)
    lifetimes.apply(Self.destroyed("A"), at: 3)
    #expect(lifetimes.lives(of: "A") == [StoreLife(created: 1, destroyed: 2), StoreLife(created: 2, destroyed: 3)])
    #expect(lifetimes.stores(at: 3).isEmpty)
    #expect(lifetimes.stores(at: 2).map(\.identity) == ["a2"])
  }
}
