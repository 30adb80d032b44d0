import Foundation

/// Limits and redaction for turning values into JSON.
///
/// The caps make sure a huge or deeply nested state can never blow up a session; where a cap
/// cuts a value short, the rendering says so with an explicit marker (see `protocol/values.md`):
///
/// | cap | marker |
/// |---|---|
/// | ``maxDepth`` | the value becomes `"… (max depth)"` |
/// | ``maxCollectionCount`` | a final array element `"… 9000 more"`, or a final object member `"…": "9000 more"` |
/// | ``maxStringLength`` | the string is cut and ends in `"… (9000 more characters)"` |
/// | ``maxNodes`` | every value past the budget becomes `"… (max size)"`, collections end early |
///
/// ```swift
/// var options = RenderOptions.fromEnvironment()   // LOUPE_REDACT=*password*,token
/// options.maxCollectionCount = 100
/// ValueRenderer.render(state, options: options)
/// ```
public struct RenderOptions: Sendable, Hashable {
  /// Deepest nesting rendered, counted in path components from the root state; deeper values
  /// become `"… (max depth)"`.
  public var maxDepth: Int
  /// Most elements rendered per collection (array, set, dictionary); the rest are summarized
  /// by a marker.
  public var maxCollectionCount: Int
  /// Longest string rendered, in characters; longer strings are cut with a marker.
  public var maxStringLength: Int
  /// Most values rendered in one call, all levels together; past it values become
  /// `"… (max size)"`. Bounds the work of a single rendering however the caps above combine.
  public var maxNodes: Int
  /// State paths (globs over ``StatePath`` text) whose values render as `"<redacted>"`.
  public var redactedPaths: [Glob]
  /// Where a rendering notes the values it redacts, so that texts derived from them can be
  /// scrubbed (an ``EventBus`` sets its own; `nil` notes nothing).
  public var redactedTexts: RedactedTexts?

  public init(
    maxDepth: Int = 32, maxCollectionCount: Int = 1_000, maxStringLength: Int = 4_096,
    maxNodes: Int = 250_000, redactedPaths: [Glob] = [], redactedTexts: RedactedTexts? = nil
  ) {
    self.maxDepth = maxDepth
    self.maxCollectionCount = maxCollectionCount
    self.maxStringLength = maxStringLength
    self.maxNodes = maxNodes
    self.redactedPaths = redactedPaths
    self.redactedTexts = redactedTexts
  }

  public static let `default` = RenderOptions()

  /// The default caps with `redactedPaths` from `LOUPE_REDACT` in `environment`.
  public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> RenderOptions {
    RenderOptions(redactedPaths: redactedPaths(fromEnvironment: environment["LOUPE_REDACT"]))
  }

  /// Parses `LOUPE_REDACT`: comma-separated globs, blanks ignored.
  public static func redactedPaths(fromEnvironment value: String?) -> [Glob] {
    guard let value else { return [] }
    return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map(Glob.init)
  }
}

/// The exact marker strings a rendering uses where it leaves something out.
public enum RenderMarker {
  /// What a redacted value renders as.
  public static let redacted = "<redacted>"
  /// A value nested deeper than ``RenderOptions/maxDepth``.
  public static let maxDepth = "… (max depth)"
  /// A value past the ``RenderOptions/maxNodes`` budget.
  public static let maxSize = "… (max size)"
  /// A function value.
  public static let function = "<function>"
  /// An actor: `"<actor Counter#2>"`, its type and which instance of it it is (its state is
  /// isolated to it, never read from outside).
  public static func actor(_ typeName: String, number: Int) -> String { "<actor \(typeName)#\(number)>" }
  /// The key of the member that ends a truncated object.
  public static let truncatedKey = "…"
  /// The final element of a truncated array: `"… 9000 more"`.
  public static func moreElements(_ count: Int) -> String { "… \(count) more" }
  /// The value of the member that ends a truncated object: `"9000 more"`.
  public static func moreMembers(_ count: Int) -> String { "\(count) more" }
  /// The suffix of a truncated string: `"… (9000 more characters)"`.
  public static func moreCharacters(_ count: Int) -> String { "… (\(count) more characters)" }
  /// The suffix of truncated `Data`: `"… (9000 more bytes)"`.
  public static func moreBytes(_ count: Int) -> String { "… (\(count) more bytes)" }
}
