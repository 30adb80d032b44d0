import Testing
@testable import LoupeCore

/// The public inits of the events the store makes on every action build through the
/// synthesized memberwise ones (whose members are declared in another order, so the two
/// differ): every argument must land in its own member, whatever the order of declaration.
@Suite struct EventInitTests {
  @Test func actionReceivedKeepsEveryArgument() {
    let source = CodeLocation(file: "App/View.swift", line: 42)
    let shape = ValueShape(enums: ["a"], tuples: ["b"])
    let event = ActionReceived(
      store: "S#1", action: "S.Action.tap", value: .int(7), origin: .tool, effect: 3, source: source, shape: shape,
      client: "cli")
    #expect(event.store == "S#1")
    #expect(event.action == "S.Action.tap")
    #expect(event.value == .int(7))
    #expect(event.origin == .tool)
    #expect(event.effect == 3)
    #expect(event.source == source)
    #expect(event.shape == shape)
    #expect(event.client == "cli")
    let plain = ActionReceived(store: "S#2", action: "S.Action.go", value: .null, origin: .send)
    #expect(plain.store == "S#2" && plain.action == "S.Action.go" && plain.origin == .send)
    #expect(plain.effect == nil && plain.source == nil && plain.shape == nil && plain.client == nil)
  }

  @Test func stateChangedKeepsEveryArgument() {
    let changes = [Change(path: "count", op: .replace, old: 1, new: 2)]
    let event = StateChanged(store: "S#1", cause: 12, changes: changes, summary: "S#1: count changed.", origin: .tool, client: "cli")
    #expect(event.store == "S#1")
    #expect(event.cause == 12)
    #expect(event.changes == changes)
    #expect(event.summary == "S#1: count changed.")
    #expect(event.origin == .tool)
    #expect(event.client == "cli")
    let plain = StateChanged(store: "S#2", cause: 5, changes: [], summary: "")
    #expect(plain.store == "S#2" && plain.cause == 5 && plain.origin == nil && plain.client == nil)
  }

  @Test func changeKeepsEveryArgument() {
    let oldShape = ValueShape(enums: ["o"])
    let newShape = ValueShape(tuples: ["n"])
    let change = Change(
      path: "rows[id: 7].isDone", op: .insert, old: false, new: true, index: 4, truncated: true, oldShape: oldShape,
      newShape: newShape)
    #expect(change.path == "rows[id: 7].isDone")
    #expect(change.op == .insert)
    #expect(change.old == .bool(false))
    #expect(change.new == .bool(true))
    #expect(change.index == 4)
    #expect(change.truncated)
    #expect(change.oldShape == oldShape)
    #expect(change.newShape == newShape)
    let plain = Change(path: "x", op: .remove)
    #expect(plain.path == "x" && plain.op == .remove && plain.old == nil && plain.new == nil && plain.index == nil)
    #expect(!plain.truncated && plain.oldShape == nil && plain.newShape == nil)
  }
}
