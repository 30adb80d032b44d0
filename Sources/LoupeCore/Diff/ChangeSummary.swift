/// The `_printChanges()`-style summary line of a `state.changed` event (CONTRACT §6).
///
/// ```
/// PageFeature#2: _count changed.
/// PageFeature#2: @self, @identity, _isPlaying changed.
/// PageFeature#2: unchanged.
/// ```
///
/// - `_name` for each top-level field with a change below it, in order of first appearance;
/// - `@self` when the state was replaced as a whole: a change at the root path, or at an
///   element or key of a state that is itself a collection — and always together with
///   `@identity`;
/// - `@identity` when the store's identity is new this time, as SwiftUI prints it for a view
///   whose identity changed;
/// - nothing changed and the identity is not new: `unchanged.` (stores do not emit such
///   events; the function is total).
public enum ChangeSummary {
  public static func line(store: String, changes: [Change], newIdentity: Bool = false) -> String {
    line(store: store, firstComponents: changes.lazy.map { (try? StatePath(parsing: $0.path))?.components.first }, newIdentity: newIdentity)
  }

  /// The line for changes whose paths are known as components (what the store has from
  /// ``StateDiff/diffWithPaths(_:_:options:)``): nothing to parse.
  package static func line(store: String, paths: [StatePath], newIdentity: Bool = false) -> String {
    line(store: store, firstComponents: paths.lazy.map { $0.components.first }, newIdentity: newIdentity)
  }

  /// ``line(store:paths:newIdentity:)`` from the first component of each change's path (`nil`
  /// for the root), the same line as the last one `cache` made when the store, the fields and
  /// the flags are the same: a store's actions mostly change the same fields, and the line is
  /// then shared, not written again.
  package static func line(
    store: String, firstComponents: [StatePath.Component?], newIdentity: Bool = false, cache: inout LineCache
  ) -> String {
    if let line = cache.line, cache.newIdentity == newIdentity, cache.store == store, cache.isMadeOf(firstComponents) {
      return line
    }
    let (fields, replacedWhole) = topFields(firstComponents)
    let line = line(store: store, fields: fields, replacedWhole: replacedWhole, newIdentity: newIdentity)
    cache = LineCache(store: store, fields: fields, replacedWhole: replacedWhole, newIdentity: newIdentity, line: line)
    return line
  }

  /// The last line a store's runtime made, and what it was made of.
  package struct LineCache: Sendable {
    var store = ""
    var fields: [String] = []
    var replacedWhole = false
    var newIdentity = false
    var line: String?

    package init() {}

    init(store: String, fields: [String], replacedWhole: Bool, newIdentity: Bool, line: String) {
      (self.store, self.fields, self.replacedWhole, self.newIdentity, self.line) = (store, fields, replacedWhole, newIdentity, line)
    }

    /// Whether ``ChangeSummary/topFields(_:)`` of `firstComponents` are this line's, found
    /// without collecting them.
    func isMadeOf(_ firstComponents: [StatePath.Component?]) -> Bool {
      var matched = 0
      var replaced = false
      for component in firstComponents {
        guard case .field(let name)? = component else {
          replaced = true
          continue
        }
        if fields[..<matched].contains(name) { continue }
        guard matched < fields.count, fields[matched] == name else { return false }
        matched += 1
      }
      return matched == fields.count && replaced == replacedWhole
    }
  }

  /// The first component of each change's path: `nil` for the root path (or a path that does
  /// not parse).
  private static func line(
    store: String, firstComponents: some Sequence<StatePath.Component?>, newIdentity: Bool
  ) -> String {
    let (fields, replacedWhole) = topFields(firstComponents)
    return line(store: store, fields: fields, replacedWhole: replacedWhole, newIdentity: newIdentity)
  }

  /// The top-level fields changed, in order of first appearance, and whether some change
  /// replaced the state whole (a first component that is not a field, or none).
  private static func topFields(_ firstComponents: some Sequence<StatePath.Component?>) -> (fields: [String], replacedWhole: Bool) {
    var fields: [String] = []
    // Few top-level fields: a linear search, until there are enough for a set to pay.
    var seen: Set<String>?
    var replacedWhole = false
    for component in firstComponents {
      guard case .field(let name)? = component else {
        replacedWhole = true
        continue
      }
      if let set = seen {
        if set.contains(name) { continue }
        seen!.insert(name)
      } else if fields.contains(name) {
        continue
      } else if fields.count == 16 {
        seen = Set(fields + [name])
      }
      fields.append(name)
    }
    return (fields, replacedWhole)
  }

  private static func line(store: String, fields: [String], replacedWhole: Bool, newIdentity: Bool) -> String {
    guard replacedWhole || newIdentity || !fields.isEmpty else { return store + ": unchanged." }
    var parts: [String] = []
    if replacedWhole || newIdentity { parts.append("@self") }
    if newIdentity { parts.append("@identity") }
    // `store: _a, _b changed.`, written into one allocation.
    var length = store.utf8.count + 2 + " changed.".utf8.count + parts.reduce(0) { $0 + $1.utf8.count + 2 }
    for field in fields { length += field.utf8.count + 3 }
    length -= 2
    return String(unsafeUninitializedCapacity: length) { buffer in
      var end = 0
      String.copyUTF8(of: store, to: buffer, at: &end)
      String.copyUTF8(of: ": ", to: buffer, at: &end)
      var separate = false
      for part in parts {
        if separate { String.copyUTF8(of: ", ", to: buffer, at: &end) }
        String.copyUTF8(of: part, to: buffer, at: &end)
        separate = true
      }
      for field in fields {
        if separate { String.copyUTF8(of: ", ", to: buffer, at: &end) }
        String.copyUTF8(of: "_", to: buffer, at: &end)
        String.copyUTF8(of: field, to: buffer, at: &end)
        separate = true
      }
      String.copyUTF8(of: " changed.", to: buffer, at: &end)
      return end
    }
  }
}
