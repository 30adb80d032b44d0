extension RenderMarker {
  /// Whether a rendering shows a cap's marker anywhere (``RenderOptions``): a value past the
  /// depth cap or the node budget, a collection's final `"… N more"` element or `"…"` member,
  /// a string or `Data` cut with `"… (N more characters)"` / `"… (N more bytes)"`.
  ///
  /// A `state.snapshot` is `truncated` when its state shows one: a state rebuilt from it is
  /// then approximate. A string of the program's own that happens to read like a marker makes
  /// the snapshot look cut short too; that errs on the side of saying "approximate".
  public static func showsCut(_ json: JSON) -> Bool {
    switch json {
    case .null, .bool, .int, .double: return false
    case .string(let text): return isCut(text)
    case .array(let elements):
      if let last = elements.last, case .string(let text) = last, isMoreElements(text) { return true }
      return elements.contains(where: showsCut)
    case .object(let object):
      if object.members.last?.key == truncatedKey { return true }
      return object.members.contains { showsCut($0.value) }
    }
  }

  private static func isCut(_ text: String) -> Bool {
    guard text.utf8.last == UInt8(ascii: ")") else { return false }
    return text == maxDepth || text == maxSize || text.hasSuffix(" more characters)") || text.hasSuffix(" more bytes)")
  }

  /// `"… 9000 more"`.
  private static func isMoreElements(_ text: String) -> Bool {
    text.hasPrefix("… ") && text.hasSuffix(" more")
  }
}
