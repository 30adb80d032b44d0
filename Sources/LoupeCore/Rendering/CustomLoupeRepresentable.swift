/// A type that chooses how Loupe renders and diffs its values.
///
/// Loupe renders ``customLoupeValue`` in place of the value itself, by the usual rules; a
/// ``JSON`` stand-in is used as it is (still subject to the caps and to redaction). The diff
/// compares the stand-ins too, so a change shows up exactly where the rendering changes.
///
/// ```swift
/// struct Tagged<Tag, RawValue>: CustomLoupeRepresentable {
///   var rawValue: RawValue
///   var customLoupeValue: Any { rawValue }    // renders as 42, not {"rawValue": 42}
/// }
///
/// extension Color: CustomLoupeRepresentable {
///   var customLoupeValue: Any { JSON.string(hexString) }   // "#FF8800"
/// }
/// ```
public protocol CustomLoupeRepresentable {
  /// The value Loupe renders in place of `self`.
  var customLoupeValue: Any { get }
}

/// A type whose values Loupe never shows: they render as `"<redacted>"` wherever they appear,
/// in states, actions, diffs, traces and text.
///
/// ```swift
/// struct Password: LoupeRedacted { var text: String }
/// ```
///
/// Paths can be redacted without touching the type, with ``RenderOptions/redactedPaths``
/// (`LOUPE_REDACT`).
public protocol LoupeRedacted {}
