import Testing
@testable import LoupeCore

// Types as a TCA feature declares them.
private enum RowAction: Equatable { case startTapped, stopTapped }
private enum RowsAction: Equatable { case element(id: Int, action: RowAction) }
private enum PlayButtonAction: Equatable { case tapped }
private enum AppAction: Equatable {
  case rows(RowsAction)
  case playButton(PlayButtonAction)
  case seeked(to: Double)
  case pair(Int, String)
  case mixed(Int, loop: Bool)
  case volume(Double)
  case child(AppChildAction?)
  case saved(())
  case refresh
  static func == (a: AppAction, b: AppAction) -> Bool { String(describing: a) == String(describing: b) }
}
private enum AppChildAction: Equatable { case dismiss }

private enum Mode: Hashable {
  case idle
  case loading(progress: Double)
  case playing(Double)
}
private struct Box { var x: Int }
private struct Row { var id: Int; var title: String; var mode: Mode }
private struct Player {
  var mode: Mode = .idle
  var name = "idle"  // a string equal to a case name stays a string
  var box = Box(x: 1)  // a struct with one field is not a case
  var child: Mode? = nil
  var point = (x: 1, y: 2)
  var rows: [Row] = [Row(id: 1, title: "a", mode: .idle), Row(id: 2, title: "b", mode: .playing(1.5))]
}

/// Renders `value` with its shape and prints it as value text.
private func text(_ value: Any) -> String {
  let (json, shape) = ValueRenderer.renderWithShape(value)
  return ValueText.compact(json, shape: shape)
}

private func action(_ value: Any) -> String {
  let (json, shape) = ValueRenderer.renderWithShape(value)
  return ActionText.text(label: ValueRenderer.actionLabel(value), value: json, shape: shape)
}

@Suite struct ValueShapeTests {
  @Test func nestedActionsSayWhereTheirCasesAre() {
    let (json, shape) = ValueRenderer.renderWithShape(AppAction.rows(.element(id: 1, action: .startTapped)))
    #expect(json.jsonText == #"{"rows":{"element":{"id":1,"action":"startTapped"}}}"#)
    #expect(shape == ValueShape(enums: ["", "rows", "rows.element.action"], tuples: ["rows.element"]))
    #expect(shape.json.jsonText == #"{"enums":["","rows","rows.element.action"],"tuples":["rows.element"]}"#)
  }

  @Test func elementsThatAgreeShareOneWildcardPath() {
    let rows = (0..<5000).map { Row(id: $0, title: "r", mode: .idle) }
    #expect(ValueRenderer.renderWithShape(rows).shape == ValueShape(enums: ["[*].mode"]))
    // A dictionary's values are elements too: its one value agrees with itself.
    #expect(ValueRenderer.renderWithShape(["rows": rows]).shape == ValueShape(enums: ["[*][*].mode"]))
  }

  @Test func elementsThatDifferAreNamedOneByOne() {
    // A nil optional is not a case: the rows no longer agree, so each case is named.
    let modes: [Mode?] = [.idle, nil, .playing(2)]
    #expect(ValueRenderer.renderWithShape(modes).shape == ValueShape(enums: ["[0]", "[2]"]))
    // An [Any] with a string and a case of the same name.
    let mixed: [Any] = ["idle", Mode.idle]
    #expect(ValueRenderer.renderWithShape(mixed).shape == ValueShape(enums: ["[1]"]))
    #expect(text(mixed) == #"["idle", .idle]"#)
    // Payloads of different cases: [*] for the cases, the payload's own shape by position.
    let modes2: [Mode] = [.idle, .loading(progress: 0.5)]
    #expect(ValueRenderer.renderWithShape(modes2).shape == ValueShape(enums: ["[0]", "[1]"], tuples: ["[1].loading"]))
  }

  @Test func setsNameElementsByTheirSortedPosition() {
    let set: Set<AnyHashable> = [AnyHashable("b"), AnyHashable(Mode.idle)]
    let (json, shape) = ValueRenderer.renderWithShape(set)
    #expect(json.jsonText == #"["b","idle"]"#)
    #expect(shape == ValueShape(enums: ["[1]"]))
  }

  @Test func dictionaryValuesAndRedaction() {
    let (_, shape) = ValueRenderer.renderWithShape(["a": Mode.idle, "b": Mode.playing(1)])
    #expect(shape == ValueShape(enums: ["[*]"]))
    var options = RenderOptions.default
    options.redactedPaths = [Glob("*secret*")]
    let (json, redacted) = ValueRenderer.renderWithShape(["secret": Mode.idle, "open": Mode.idle], options: options)
    #expect(json.jsonText == #"{"open":"idle","secret":"<redacted>"}"#)
    // A redacted value is not looked at, so nothing is said about it.
    #expect(redacted == ValueShape(enums: [#"["open"]"#]))
  }

  @Test func wireFormRoundTripsAndRejectsBadLists() throws {
    let shape = ValueShape(enums: ["", "[*].mode"], tuples: ["loading"])
    #expect(ValueShape(json: shape.json) == shape)
    #expect(ValueShape(json: ["enums": [1]]) == nil)
    #expect(ValueShape(json: "x") == nil)
    #expect(ValueShape(json: [:]) == ValueShape())
  }
}

@Suite struct SwiftValueTextTests {
  @Test func actionsReadAsSwift() {
    #expect(action(AppAction.rows(.element(id: 1, action: .startTapped))) == "AppAction.rows(.element(id: 1, action: .startTapped))")
    #expect(action(AppAction.playButton(.tapped)) == "AppAction.playButton(.tapped)")
    #expect(action(AppAction.seeked(to: 3)) == "AppAction.seeked(to: 3.0)")
    #expect(action(AppAction.pair(1, "a")) == #"AppAction.pair(1, "a")"#)
    #expect(action(AppAction.mixed(2, loop: false)) == "AppAction.mixed(2, loop: false)")
    #expect(action(AppAction.volume(1.5)) == "AppAction.volume(1.5)")
    #expect(action(AppAction.child(nil)) == "AppAction.child(nil)")
    #expect(action(AppAction.child(.dismiss)) == "AppAction.child(.dismiss)")
    #expect(action(AppAction.saved(())) == "AppAction.saved(())")
    #expect(action(AppAction.refresh) == "AppAction.refresh")
  }

  @Test func stateValuesReadAsSwift() {
    #expect(text(Player()) == #"""
      {mode: .idle, name: "idle", box: {x: 1}, child: nil, point: (x: 1, y: 2), rows: [{id: 1, title: "a", mode: .idle}, {id: 2, title: "b", mode: .playing(1.5)}]}
      """#)
    #expect(text(Mode.loading(progress: 0.5)) == ".loading(progress: 0.5)")
    #expect(text((1, "a")) == #"(1, "a")"#)
  }

  @Test func withoutAShapeTheTextIsTheJSONLikeOne() {
    // Traces written before shapes.
    let value = ValueRenderer.render(AppAction.rows(.element(id: 1, action: .startTapped)))
    #expect(ActionText.text(label: "AppAction.rows", value: value) == #"AppAction.rows({element: {id: 1, action: "startTapped"}})"#)
    #expect(ValueText.compact(ValueRenderer.render(Player())).hasPrefix(#"{mode: "idle", name: "idle", box: {x: 1}, child: nil, point: {x: 1, y: 2}"#))
  }

  @Test func aShapeNeverDressesUpAMarker() {
    // A case whose rendering a cap or redaction replaced prints as the marker it is.
    let shape = ValueShape(enums: ["", "a"])
    #expect(ValueText.compact("<redacted>", shape: shape) == #""<redacted>""#)
    #expect(ValueText.compact(["a": "… (max depth)"], shape: shape) == #".a("… (max depth)")"#)
    #expect(ValueText.compact(["a": "… (max depth)", "b": 1], shape: shape) == #"{a: "… (max depth)", b: 1}"#)
    #expect(ValueText.compact(nil, shape: shape) == "nil")
  }

  @Test func changesCarryTheShapesOfTheirValues() {
    var new = Player()
    new.mode = .loading(progress: 0.5)
    new.rows[1].mode = .playing(2)
    new.child = .idle
    let changes = StateDiff.diffWithShapes(Player(), new)
    #expect(ChangeText.text(changes) == """
        − mode: .idle
        + mode: .loading(progress: 0.5)
        + child: .idle
        − rows[1].mode.playing: 1.5
        + rows[1].mode.playing: 2.0
      """)
    #expect(changes[0].oldShape == ValueShape(enums: [""]))
    #expect(changes[0].newShape == ValueShape(enums: [""], tuples: ["loading"]))
    // The plain diff stays as it was: no shapes.
    #expect(StateDiff.diff(Player(), new).allSatisfy { $0.oldShape == nil && $0.newShape == nil })
  }

  @Test func diffTextOpensTheSameCaseAndPrintsAnotherWhole() {
    var old = Player()
    old.mode = .loading(progress: 0.25)
    var new = old
    new.mode = .loading(progress: 0.5)
    new.rows[0].mode = .playing(1)
    let (a, oldShape) = ValueRenderer.renderWithShape(old)
    let (b, newShape) = ValueRenderer.renderWithShape(new)
    #expect(DiffText.diff(a, b, oldShape: oldShape, newShape: newShape) == """
        {
          mode: .loading(
      −     progress: 0.25
      +     progress: 0.5
          )
          … (4 unchanged)
          rows: [
            [0]: {
              id: 1
              title: "a"
      −       mode: .idle
      +       mode: .playing(1.0)
            }
            [1]: {…}
          ]
        }
      """)
  }

  @Test func longCasesSpreadOverLines() {
    let long = AppAction.pair(1, String(repeating: "x", count: 90))
    let (a, oldShape) = ValueRenderer.renderWithShape(AppAction.refresh)
    let (b, newShape) = ValueRenderer.renderWithShape(long)
    #expect(DiffText.diff(a, b, oldShape: oldShape, newShape: newShape) == """
      − .refresh
      + .pair(
      +   1
      +   "\(String(repeating: "x", count: 90))"
      + )
      """)
  }
}

@Suite struct RebuiltShapeTests {
  private func event(_ seq: Int, _ payload: Event.Payload) -> Event { Event(seq: seq, time: Double(seq), payload: payload) }

  @Test func aRebuiltStateKeepsTheShapesOfItsSnapshotAndChanges() {
    var rebuilder = StateRebuilder()
    rebuilder.apply(event(1, .stateSnapshot(StateSnapshot(
      store: "App#1", cause: nil, state: ["mode": "idle", "pages": [["id": 1, "mode": "idle"]]],
      shape: ValueShape(enums: ["mode", "pages[0].mode"])))))
    rebuilder.apply(event(2, .stateChanged(StateChanged(store: "App#1/pages[id: 1]", cause: 1, changes: [
      Change(path: "mode", op: .replace, old: "idle", new: ["loading": ["progress": 0.5]],
             oldShape: ValueShape(enums: [""]), newShape: ValueShape(enums: [""], tuples: ["loading"])),
    ], summary: "App#1/pages[id: 1]: _mode changed."))))
    rebuilder.apply(event(3, .stateChanged(StateChanged(store: "App#1", cause: 1, changes: [
      Change(path: "pages[id: 2]", op: .insert, new: ["id": 2, "mode": "idle"], index: 1, newShape: ValueShape(enums: ["mode"])),
    ], summary: "App#1: _pages changed."))))
    let root = rebuilder.state(of: "App#1")!
    // Positions and ids become [*]: elements move, types do not.
    #expect(root.shape == ValueShape(enums: ["mode", "pages[*].mode"], tuples: ["pages[*].mode.loading"]))
    #expect(ValueText.compact(root.value, shape: root.shape) == """
      {mode: .idle, pages: [{id: 1, mode: .loading(progress: 0.5)}, {id: 2, mode: .idle}]}
      """)
    let page = rebuilder.state(of: "App#1/pages[id: 2]")!
    #expect(ValueText.compact(page.value, shape: page.shape) == "{id: 2, mode: .idle}")
    #expect(page.at("mode")?.shape == ValueShape(enums: [""], tuples: ["loading"]))
  }

  @Test func aTraceWithoutShapesRebuildsWithout() {
    var rebuilder = StateRebuilder()
    rebuilder.apply(event(1, .stateSnapshot(StateSnapshot(store: "App#1", cause: nil, state: ["mode": "idle"]))))
    #expect(rebuilder.state(of: "App#1") == RebuiltState(value: ["mode": "idle"], approximate: false))
  }
}
