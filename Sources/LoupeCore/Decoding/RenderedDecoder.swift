/// Decodes Loupe's rendered form of a value (the ``JSON`` that ``ValueRenderer`` produces, as in
/// `action.received`'s `value` or `loupe/state`'s `state`) into any `Decodable` type.
///
/// It reads what the renderer writes, not what `JSONEncoder` writes: a case without a payload
/// is its name (`"idle"`), one unlabelled payload value is the value itself
/// (`{"playing":1.5}`), several are an array (`{"pair":[1,"a"]}`), labelled ones an object
/// (`{"seeking":{"to":3}}`, `{"mixed":{"0":2,"loop":false}}`); dates are ISO 8601 text, `Data`
/// Base64, URLs their absolute string, `nan`/`inf` strings, integers past `Int` strings of
/// digits, dictionaries with other keys objects whose member names are the keys' JSON text.
/// Swift's own `JSONEncoder` forms of enums (`{"idle":{}}`, `{"playing":{"_0":1.5}}`) decode
/// too. The rules, and how one keyed container serves structs and enums alike, are in
/// `protocol/values.md`, "Decoding the rendered form".
///
/// What the rendering lost cannot come back, and says so: a value cut short by a cap
/// (`"… 3 more"`, `"… (max depth)"`), a redacted value (`"<redacted>"`), a cycle marker
/// (`{"$ref": …}`) fail with an error naming the type, the path and the cause.
///
/// ```swift
/// let json = ValueRenderer.render(AppFeature.Action.rows(.element(id: 1, action: .toggled)))
/// // {"rows":{"element":{"id":1,"action":"toggled"}}}
/// let action = try RenderedDecoder().decode(AppFeature.Action.self, from: json)
/// ```
///
/// Decoding never traps on its input, and stops with an error past ``maximumDepth`` levels of
/// nesting.
public struct RenderedDecoder: Sendable {
  /// The deepest nesting decoded (members, elements and payloads, each a level): a value
  /// nested deeper fails. A rendering is 32 levels deep at most by default (its `maxDepth`);
  /// the limit keeps a decode within a 512 KB thread stack (a debug build takes about 1.1 KB a
  /// level; 500 levels overflowed one), where tools' requests are decoded off the main thread.
  public static let maximumDepth = 256

  public init() {}

  /// The value of type `type` that `json` is the rendering of.
  ///
  /// - Throws: ``RenderedDecodingError`` naming `type`, the path of the part that did not
  ///   decode and why.
  public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws(RenderedDecodingError) -> T {
    let root = RenderedValueDecoder(root: json)
    do {
      return try root.decodeValue(T.self)
    } catch {
      throw RenderedDecodingError(typeName: TypeName.of(T.self), path: error.path.description, reason: error.reason)
    }
  }
}
