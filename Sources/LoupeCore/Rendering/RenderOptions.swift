/// Limits and redaction for turning values into JSON.
///
/// The caps make sure a huge or deeply nested state can never blow up a session; where a cap
/// cuts a value short, the rendering says so explicitly (see `protocol/values.md`).
public struct RenderOptions: Sendable, Hashable {
  /// Deepest nesting rendered; deeper values become a truncation marker.
  public var maxDepth: Int
  /// Most elements rendered per collection; the rest are summarized by a marker.
  public var maxCollectionCount: Int
  /// Longest string rendered, in characters; longer strings are cut with a marker.
  public var maxStringLength: Int
  /// State paths (globs over ``StatePath`` text) whose values render as `"<redacted>"`.
  public var redactedPaths: [Glob]

  public init(maxDepth: Int = 32, maxCollectionCount: Int = 1_000, maxStringLength: Int = 4_096, redactedPaths: [Glob] = []) {
    self.maxDepth = maxDepth
    self.maxCollectionCount = maxCollectionCount
    self.maxStringLength = maxStringLength
    self.redactedPaths = redactedPaths
  }

  public static let `default` = RenderOptions()

  /// Parses `LOUPE_REDACT`: comma-separated globs, blanks ignored.
  public static func redactedPaths(fromEnvironment value: String?) -> [Glob] {
    guard let value else { return [] }
    return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map(Glob.init)
  }
}

import Foundation
