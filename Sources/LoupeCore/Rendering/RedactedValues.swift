/// Puts a state's current values back at its redacted places in a state a tool sent
/// (`loupe/setState`, CONTRACT §16): redacted paths can't be set through that door any more
/// than they can be read, so they keep the values they have.
///
/// Three renderings of the same places: `incoming` (what the tool sent), `shown` (the current
/// state as clients see it, `"<redacted>"` at each redacted place) and `revealed` (the current
/// state with nothing redacted, which never leaves the program). Wherever `shown` is
/// `"<redacted>"` and `revealed` is not, the result holds `revealed`'s value, whatever
/// `incoming` held there (or whether it held anything). Places are matched by member name
/// in objects, and in arrays by the element's `id` member when both sides have one (an
/// identified array whose elements the tool reordered), else by position. Everything else
/// is `incoming` unchanged.
///
/// ```swift
/// RedactedValues.restore(
///   in: ["user": "blob", "token": "<redacted>"], shown: ["user": "ann", "token": "<redacted>"],
///   revealed: ["user": "ann", "token": "s3cr3t"])
/// // ["user": "blob", "token": "s3cr3t"]
/// ```
package enum RedactedValues {
  package static func restore(in incoming: JSON, shown: JSON, revealed: JSON) -> JSON {
    restore(incoming, shown: shown, revealed: revealed) ?? incoming
  }

  /// `nil` in, `nil` out, unless something redacted lies below (then the place is made).
  private static func restore(_ incoming: JSON?, shown: JSON, revealed: JSON) -> JSON? {
    switch (shown, revealed) {
    case (.string(RenderMarker.redacted), _):
      return revealed == shown ? incoming : revealed
    case (.object(let shownObject), .object(let revealedObject)):
      guard holdsRedacted(shown) else { return incoming }
      var result: JSONObject
      switch incoming {
      case .object(let object)?: result = object
      case nil: result = JSONObject()
      default: return incoming  // a different kind of value: nothing lines up
      }
      for member in shownObject where holdsRedacted(member.value) {
        guard let revealedValue = revealedObject[member.key] else { continue }
        if let value = restore(result[member.key], shown: member.value, revealed: revealedValue) {
          result[member.key] = value
        }
      }
      return .object(result)
    case (.array(let shownElements), .array(let revealedElements)):
      guard case .array(var elements)? = incoming, holdsRedacted(shown) else { return incoming }
      for index in elements.indices {
        guard let place = counterpart(of: elements[index], at: index, in: shownElements),
          place < revealedElements.count, holdsRedacted(shownElements[place])
        else { continue }
        if let value = restore(elements[index], shown: shownElements[place], revealed: revealedElements[place]) {
          elements[index] = value
        }
      }
      return .array(elements)
    default:
      return incoming
    }
  }

  /// The position in `shown` of the element at `index` of the incoming array.
  private static func counterpart(of element: JSON, at index: Int, in shown: [JSON]) -> Int? {
    if case .object(let object) = element, let id = object["id"] {
      return shown.firstIndex { if case .object(let other) = $0 { other["id"] == id } else { false } }
    }
    return index < shown.count ? index : nil
  }

  /// Whether `json` holds `"<redacted>"` anywhere.
  package static func holdsRedacted(_ json: JSON) -> Bool {
    switch json {
    case .string(let text): text == RenderMarker.redacted
    case .array(let elements): elements.contains(where: holdsRedacted)
    case .object(let object): object.contains { holdsRedacted($0.value) }
    default: false
    }
  }
}
