import Foundation
import LoupeCore
import Loupe

/// `loupe-examples zoo`: a hidden scenario for the rendering tests. Each case renders and
/// diffs one kind of value that reflection handles badly — directly, and as the state of a
/// real store that sends it as an action and changes to it (so `LOUPE_RECORD=x.loupe`
/// records it) — and prints what it saw. The tests run every case in a child process of its
/// own, so a case that crashes the program cannot hide the next one.
///
/// - `zoo list`: the case names, one a line.
/// - `zoo CASE`: runs one case; prints `old:`, `new:`, `changes: N`, one `change:` line each,
///   `applies: true|false` (whether the changes turn the old rendering into the new one),
///   `text:` lines (the value text of each rendering) and `diff:` lines (`DiffText`), then `ok`.
/// - `zoo fuzz SEED COUNT`: renders and diffs COUNT random compositions of the zoo's values
///   (seeded, so a failure can be replayed), then `ok`.
public enum RenderingZoo {
  @MainActor
  public static func main(_ arguments: [String]) -> Never {
    switch arguments.first {
    case "list"?:
      print(cases.map(\.name).joined(separator: "\n"))
      LibC.flushAllStreams()
      exit(0)
    case "fuzz"?:
      let seed = arguments.count > 1 ? UInt64(arguments[1]) ?? 1 : 1
      let count = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
      ZooFuzz.run(seed: seed, count: count)
    case let name?:
      guard let zooCase = cases.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("zoo: no case \(name)\n".utf8))
        exit(2)
      }
      zooCase.run()
    case nil:
      FileHandle.standardError.write(Data("usage: loupe-examples zoo list | CASE | fuzz SEED COUNT\n".utf8))
      exit(2)
    }
    print("ok")
    LibC.flushAllStreams()
    exit(0)
  }

  struct Case {
    let name: String
    let run: @MainActor () -> Void
  }

  /// Renders and diffs `old` and `new` directly, then as a store's state and action.
  @MainActor
  static func check<Value>(_ old: Value, _ new: Value) {
    let a = ValueRenderer.render(old)
    let b = ValueRenderer.render(new)
    print("old: \(a.jsonText)")
    print("new: \(b.jsonText)")
    let changes = StateDiff.diff(old, new)
    print("changes: \(changes.count)")
    for change in changes { print("change: \(change.json.jsonText)") }
    var applied = a
    let applies = (try? changes.forEach { try $0.apply(to: &applied) }) != nil && applied == b
    print("applies: \(applies)")
    print("text: \(ValueText.compact(a))")
    print("text: \(ValueText.compact(b))")
    for line in DiffText.lines(a, b) { print("diff: \(line)") }
    LibC.flushAllStreams()
    let store = Store(initialState: ZooFeature<Value>.State(value: old), name: "Zoo#1") { ZooFeature<Value>() }
    store.send(.set(new))
    store.send(.set(old))
  }

  @MainActor
  static let cases: [Case] = foundationReferenceCases + reflectionCases + foundationValueCases + errorCases
}

/// A state of one value and an action that sets it.
struct ZooFeature<Value>: Reducer {
  struct State {
    var value: Value
  }

  enum Action {
    case set(Value)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let value): state.value = value
    }
    return .none
  }
}
