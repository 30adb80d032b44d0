/// The `_printChanges()`-style summary line of a `state.changed` event.
///
/// `PageFeature#2: _count changed.` — one `_name` per top-level field that changed, in order
/// of first appearance; `@self` when the state was replaced as a whole (a change at the root
/// path) and `@identity` when the store's identity is new this time, as SwiftUI prints them.
public enum ChangeSummary {
  public static func line(store: String, changes: [Change], newIdentity: Bool = false) -> String {
    var parts: [String] = []
    var replacedWhole = false
    var seen = Set<String>()
    for change in changes {
      guard let first = (try? StatePath(parsing: change.path))?.components.first else {
        replacedWhole = true
        continue
      }
      let name: String
      switch first {
      case .field(let field): name = "_" + field
      case .index, .id, .key: name = "@self"
      }
      if name == "@self" { replacedWhole = true; continue }
      if seen.insert(name).inserted { parts.append(name) }
    }
    var head: [String] = []
    if replacedWhole || newIdentity { head.append("@self") }
    if newIdentity { head.append("@identity") }
    let all = head + parts
    if all.isEmpty { return "\(store): unchanged." }
    return "\(store): \(all.joined(separator: ", ")) changed."
  }
}
