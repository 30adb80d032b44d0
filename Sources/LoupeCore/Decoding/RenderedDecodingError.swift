/// Why a rendered value did not decode: the type asked for, where in the value it failed, and
/// what was wrong there.
///
/// ```swift
/// do { _ = try RenderedDecoder().decode(PageFeature.Action.self, from: ["rowTapped": ["id": "x"]]) }
/// catch { print(error) }
/// // Cannot decode PageFeature.Action: at 'rowTapped.id': expected an integer, found "x"
/// ```
public struct RenderedDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The type asked for, as Loupe names types (no module): `PageFeature.Action`.
  public var typeName: String
  /// Where in the value decoding failed, as a state path (`rows[3].title`; the case name for an
  /// enum's payload, `rowTapped.id`); `""` for the value itself.
  public var path: String
  /// What did not decode there: `expected a number, found "abc"`.
  public var reason: String

  public init(typeName: String, path: String, reason: String) {
    self.typeName = typeName
    self.path = path
    self.reason = reason
  }

  /// One line naming all three: `Cannot decode PageFeature.Action: at 'rowTapped.id': expected
  /// an integer, found "x"` (`at ''` for the value itself).
  public var description: String { "Cannot decode \(typeName): at '\(path)': \(reason)" }
}

/// A failure inside the decoder, at a path relative to the value decoded; the user's
/// `init(from:)` passes it through untouched, and ``RenderedDecoder`` adds the type's name.
struct RenderedDecodingFailure: Error {
  var path: StatePath
  var reason: String
}
