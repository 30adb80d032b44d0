import Loupe
import LoupeCore
import Testing

/// A `private` type is named by its own name wherever Loupe names a type, never the runtime's
/// `(unknown context at $…)` spelling (issue 33, item 13).
@Suite struct PrivateTypeNameTests {
  /// A dependency key without a test value is reported by its name (TestStore's failure
  /// message `@Dependency(PlayerListKey) has no test value…`).
  @Test func aPrivateDependencyKeyIsNamedByItsOwnName() {
    let reported = Lock<[String]>([])
    var values = DependencyValues()
    values.context = .test
    values.reportMissingTestValue = { key in reported.withLock { $0.append(key) } }
    _ = values[PlayerListKey.self]
    _ = values[PlayerListKeys.Nested.self]
    #expect(reported.withLock { $0 } == ["PlayerListKey", "PlayerListKeys.Nested"])
  }

  @Test func typeNamesDropAnonymousContextsEverywhereInAName() {
    struct Local {}
    #expect(TypeName.of(PlayerListKey.self) == "PlayerListKey")
    #expect(TypeName.of([PlayerListKeys.Nested: Local].self) == "Dictionary<PlayerListKeys.Nested, PrivateTypeNameTests.Local>")
  }
}

private enum PlayerListKey: DependencyKey {
  static let liveValue = 1
}

private enum PlayerListKeys {
  enum Nested: DependencyKey, Hashable {
    case only
    static let liveValue = 2
  }
}
