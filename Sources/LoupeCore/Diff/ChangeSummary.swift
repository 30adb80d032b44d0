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
    var fields: [String] = []
    var seen = Set<String>()
    var replacedWhole = false
    for change in changes {
      guard let path = try? StatePath(parsing: change.path), case .field(let name)? = path.components.first else {
        replacedWhole = true
        continue
      }
      if seen.insert(name).inserted { fields.append("_" + name) }
    }
    var parts: [String] = []
    if replacedWhole || newIdentity { parts.append("@self") }
    if newIdentity { parts.append("@identity") }
    parts.append(contentsOf: fields)
    if parts.isEmpty { return "\(store): unchanged." }
    return "\(store): \(parts.joined(separator: ", ")) changed."
  }
}
