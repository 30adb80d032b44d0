/// Change paths already parsed, for a rebuild that applies change after change of the same few
/// paths (`rows[id: 7]`, `rows[id: 7].v`: a scoped store's paths are relative to its scope, so
/// its siblings repeat them): looking one up costs a fraction of parsing it again.
///
/// Paths are told apart by their UTF-8 bytes (`["é"]` and `["e\u{301}"]` name different
/// members, though the strings compare equal). At most ``limit`` are kept; then all are
/// forgotten and parsed again as needed.
///
/// Not thread-safe: one rebuild at a time.
package final class ParsedPaths {
  private struct Spelled: Hashable {
    var text: String
    static func == (a: Spelled, b: Spelled) -> Bool { a.text.wireEquals(b.text) }
    // Equal bytes are equal strings: `String`'s hash (canonical) agrees with this `==`.
    func hash(into hasher: inout Hasher) { hasher.combine(text) }
  }

  /// Per path, what parsing it gave (`nil`: it does not parse). No dynamic exclusivity
  /// checks on it: a table belongs to one rebuild, on one thread at a time.
  @exclusivity(unchecked) private var parsed: [Spelled: StatePath?] = [:]
  static let limit = 4_096

  package init() {}

  /// `text` parsed (``StatePath/init(parsing:)``); `nil` when it does not parse.
  func path(_ text: String) -> StatePath? {
    let key = Spelled(text: text)
    if let known = parsed[key] { return known }
    if parsed.count >= Self.limit { parsed.removeAll(keepingCapacity: true) }
    let path = try? StatePath(parsing: text)
    parsed[key] = .some(path)
    return path
  }
}
