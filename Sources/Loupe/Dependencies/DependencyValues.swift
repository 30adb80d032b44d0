import LoupeCore

/// A key for a dependency in ``DependencyValues``: its type and the values it has in a
/// running program and under test.
///
/// ```swift
/// struct APIClient: Sendable { var fetch: @Sendable (Int) async throws -> String }
///
/// enum APIClientKey: DependencyKey {
///   static let liveValue = APIClient { id in try await URLSession.shared.fetch(id) }
///   static let testValue = APIClient { _ in "stub" }      // optional: see below
/// }
///
/// extension DependencyValues {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// A key without a `testValue` used under a `TestStore` (LoupeTesting) fails the test and
/// names the key; the live value is returned so the test can go on.
public protocol DependencyKey: TestDependencyKey {
  /// The value in a running program.
  static var liveValue: Value { get }

  // Repeated from TestDependencyKey: without it the compiler does not infer `Value` from
  // `liveValue` alone (swiftlang/swift#61077).
  associatedtype Value = Self
  static var testValue: Value { get }
}

/// A key with the values it has under test and in previews, and no live value of its own
/// (TCA's `TestDependencyKey`): an interface module's half of a client whose live value is
/// declared elsewhere, as `DependencyKey`, on the same type. Used in a running program
/// without that, it takes its test value.
public protocol TestDependencyKey {
  associatedtype Value: Sendable
  /// The value under test (`TestStore`). For a ``DependencyKey``, by default: none, which
  /// fails the test when used.
  static var testValue: Value { get }
  /// The value in previews: by default, the test value.
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  public static var previewValue: Value { testValue }
}

extension DependencyKey {
  public static var testValue: Value {
    DependencyValues.MissingTestValue.current?.wasMissing.store(true, ordering: .relaxed)
    return liveValue
  }
}

/// The dependencies a store's reducer and effects see, read with ``Dependency``.
///
/// A store takes the values current where it is created (``withDependencies(_:operation:)``)
/// and the changes its initializer's `withDependencies` closure makes; scoped child stores
/// share their root's; an effect sees the values of the store that started it. Values not
/// set are the key's `liveValue` (or `testValue` under a `TestStore`), made once per store.
public struct DependencyValues: Sendable {
  /// Which default a key that is not set takes.
  public enum Context: Sendable, Hashable {
    case live
    case test
  }

  /// The values in effect for the current task: a store's, inside its reducer and effects.
  @TaskLocal public static var current = DependencyValues()

  public var context: Context = .live {
    didSet { defaults = DefaultValues() }
  }
  private var overrides: [ObjectIdentifier: any Sendable] = [:]
  /// Defaults made so far (shared by copies, so a stateful default such as
  /// `UUIDGenerator.incrementing` is made once per store).
  private var defaults = DefaultValues()
  /// Told the key's name when a key without a test value is used in the test context
  /// (TestStore reports it as a test failure).
  public var reportMissingTestValue: (@Sendable (_ key: String) -> Void)?
  /// Told the message of ``reportIssue(_:fileID:line:)`` (TestStore reports it as a test
  /// failure); `nil`: written to standard error.
  public var reportIssue: (@Sendable (_ message: String) -> Void)?

  public init() {}

  /// The value for `key`: the one set, else its default for ``context``.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] as? Key.Value { return value }
      return defaults.value(for: key, context: context, report: reportMissingTestValue)
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
    }
  }

  /// Whether these are the ambient defaults of a running program: nothing set, live.
  var isPlainLive: Bool {
    overrides.isEmpty && context == .live && reportMissingTestValue == nil && reportIssue == nil
  }

  /// A copy with fresh defaults: the values a new store starts from (overrides are kept).
  func forNewStore() -> DependencyValues {
    var copy = self
    copy.defaults = DefaultValues()
    return copy
  }

  /// Set while a key's `testValue` is read: the default implementation marks it missing.
  enum MissingTestValue {
    final class Flag: Sendable { let wasMissing = AtomicBool(false) }
    @TaskLocal static var current: Flag?
  }
}

/// Lazily made default values, by key.
private final class DefaultValues: Sendable {
  /// Each value made, and whether it was a key's missing test value (its live value).
  private let values = Lock<[ObjectIdentifier: (value: any Sendable, missing: Bool)]>([:])

  /// The default for `key`. A missing test value is reported every time it is read with a
  /// reporter, not only when it is made: a read before the reporter is installed (a
  /// `TestStore`'s `withDependencies` closure reading the key, or setting one of its fields)
  /// makes the value but does not use it.
  func value<Key: TestDependencyKey>(
    for key: Key.Type, context: DependencyValues.Context, report: (@Sendable (String) -> Void)?
  ) -> Key.Value {
    let id = ObjectIdentifier(key)
    if let (value, missing) = values.withLock({ $0[id] }), let value = value as? Key.Value {
      if missing { report?(DependencyNames.name(of: key)) }
      return value
    }
    let value: Key.Value
    var missing = false
    switch context {
    case .live:
      value = (Key.self as? any DependencyKey.Type).map { Self.liveValue(of: $0) as! Key.Value } ?? Key.testValue
    case .test:
      let flag = DependencyValues.MissingTestValue.Flag()
      value = DependencyValues.MissingTestValue.$current.withValue(flag) { Key.testValue }
      missing = flag.wasMissing.load(ordering: .relaxed)
      if missing { report?(DependencyNames.name(of: key)) }
    }
    return values.withLock { values in
      if let existing = values[id]?.value as? Key.Value { return existing }
      values[id] = (value, missing)
      return value
    }
  }
}

extension DefaultValues {
  fileprivate static func liveValue<Key: DependencyKey>(of key: Key.Type) -> any Sendable { Key.liveValue }
}

/// How failures name a key: its type name as a reader writes it (`APIClientKey`; a
/// `private` key too, not `(unknown context at $…).APIClientKey`).
enum DependencyNames {
  static func name(of key: Any.Type) -> String {
    TypeNames.name(of: key)
  }
}

/// Runs `operation` with the current dependencies changed by `update`: stores created inside
/// start from them.
///
/// ```swift
/// let store = withDependencies { $0.uuid = .incrementing } operation: {
///   Store(initialState: Feature.State()) { Feature() }
/// }
/// ```
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// The `async` form of ``withDependencies(_:operation:)``.
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void, operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}
