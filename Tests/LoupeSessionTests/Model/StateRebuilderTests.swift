import Foundation
import Testing
import LoupeCore

/// The rebuilding rule of CONTRACT §10 on hand-made events.
@Suite struct StateRebuilderTests {
  static func changed(_ store: String, _ cause: Int, _ changes: [Change], summary: String? = nil) -> Event.Payload {
    .stateChanged(StateChanged(store: store, cause: cause, changes: changes, summary: summary ?? "\(store): _x changed."))
  }

  static func events(_ payloads: [Event.Payload]) -> [Event] {
    payloads.enumerated().map { Event(seq: $0.offset + 1, time: Double($0.offset), payload: $0.element) }
  }

  @Test func aSnapshotThenRootAndScopedChanges() {
    var rebuilder = StateRebuilder()
    for event in Self.events([
      .stateSnapshot(StateSnapshot(store: "App#1", cause: nil, state: ["theme": "light", "pages": [["id": 1, "detail": ["n": 0]], ["id": 2, "detail": .null]]])),
      Self.changed("App#1/pages[id: 1]/detail", 9, [Change(path: "n", op: .replace, old: 0, new: 4)]),
      Self.changed("App#1", 9, [Change(path: "theme", op: .replace, old: "light", new: "dark")]),
      .mark(Mark(label: "ignored")),
    ]) { rebuilder.apply(event) }
    #expect(rebuilder.state(of: "App#1") == RebuiltState(value: ["theme": "dark", "pages": [["id": 1, "detail": ["n": 4]], ["id": 2, "detail": .null]]], approximate: false))
    #expect(rebuilder.state(of: "App#1/pages[id: 1]/detail") == RebuiltState(value: ["n": 4], approximate: false))
    #expect(rebuilder.state(of: "App#1/pages[id: 1]")?.at("detail.n")?.value == 4)
    #expect(rebuilder.state(of: "App#1/pages[id: 3]") == nil)
    #expect(rebuilder.state(of: "Other#1") == nil)
    #expect(rebuilder.rootStores == ["App#1"])
  }

  @Test func aNewIdentitysRestatementIsNotAppliedTwice() {
    // The parent's event writes the presented child; the child's `@identity` event restates it
    // against its previous lifetime (items [a, b] then) and must not be applied on top.
    var rebuilder = StateRebuilder()
    for event in Self.events([
      .stateSnapshot(StateSnapshot(store: "App#1", cause: nil, state: ["detail": .null])),
      Self.changed("App#1", 2, [Change(path: "detail", op: .replace, old: .null, new: ["items": ["a"]])]),
      Self.changed(
        "App#1/detail", 2, [Change(path: "items[1]", op: .remove, old: "b")], summary: "App#1/detail: @self, @identity, _items changed."),
    ]) { rebuilder.apply(event) }
    #expect(rebuilder.state(of: "App#1/detail") == RebuiltState(value: ["items": ["a"]], approximate: false))
  }

  @Test func truncationAndFailuresMakeItApproximate() {
    var truncatedSnapshot = StateRebuilder()
    truncatedSnapshot.apply(Event(seq: 1, time: 0, payload: .stateSnapshot(StateSnapshot(store: "A#1", cause: nil, state: ["n": 0], truncated: true))))
    #expect(truncatedSnapshot.state(of: "A#1")?.approximate == true)

    var truncatedChange = StateRebuilder()
    for event in Self.events([
      .stateSnapshot(StateSnapshot(store: "A#1", cause: nil, state: ["n": 0])),
      Self.changed("A#1", 1, [Change(path: "n", op: .replace, old: 0, new: 1, truncated: true)]),
    ]) { truncatedChange.apply(event) }
    #expect(truncatedChange.state(of: "A#1") == RebuiltState(value: ["n": 1], approximate: true))

    var failing = StateRebuilder()
    for event in Self.events([
      .stateSnapshot(StateSnapshot(store: "A#1", cause: nil, state: ["list": []])),
      Self.changed("A#1", 1, [Change(path: "list[3]", op: .remove, old: 1), Change(path: "m", op: .insert, new: 2)]),
    ]) { failing.apply(event) }
    #expect(failing.state(of: "A#1") == RebuiltState(value: ["list": [], "m": 2], approximate: true))

    // A later exact snapshot makes it exact again.
    failing.apply(Event(seq: 9, time: 0, payload: .stateSnapshot(StateSnapshot(store: "A#1", cause: 8, state: ["m": 3]))))
    #expect(failing.state(of: "A#1") == RebuiltState(value: ["m": 3], approximate: false))
  }

  @Test func withoutASnapshotOnlyWhatChangesWroteIsKnown() {
    var rebuilder = StateRebuilder()
    rebuilder.apply(Event(seq: 3, time: 0, payload: Self.changed("A#1", 2, [Change(path: "n", op: .replace, old: 0, new: 1)])))
    #expect(rebuilder.state(of: "A#1") == RebuiltState(value: ["n": 1], approximate: true))
  }

  @Test func anOlderBuildsUnknownSnapshotKindStillCounts() {
    var rebuilder = StateRebuilder()
    rebuilder.apply(Event(seq: 1, time: 0, payload: .unknown(kind: "state.snapshot", fields: ["store": "A#1", "cause": .null, "state": ["n": 5]])))
    #expect(rebuilder.state(of: "A#1") == RebuiltState(value: ["n": 5], approximate: false))
  }

  @Test func scopePaths() {
    #expect(StateRebuilder.scopePath(of: "AppFeature#1/pages[id: 2]/detail")?.description == "pages[id: 2].detail")
    #expect(StateRebuilder.scopePath(of: "AppFeature#1")?.isRoot == true)
    #expect(StateRebuilder.rootStore(of: "AppFeature#1/pages[id: 2]/detail") == "AppFeature#1")
    #expect(StateRebuilder.rootStore(of: "AppFeature#1") == "AppFeature#1")
    #expect(StateRebuilder.rootStore(of: "Ünïcode#1/child") == "Ünïcode#1")
    #expect(StateRebuilder.rootStore(of: "/x") == "")
    #expect(StateRebuilder.rootStore(of: "") == "")
  }
}
