/// Rebuilding without a snapshot (a trace from before CONTRACT §10): the state starts empty
/// and is marked approximate, so a change whose containers are not known yet gets them made
/// up — an object for a member, an array holding `{id: X}` for an identified element — and
/// lands where the trace says it goes, instead of being dropped. Only what changes wrote is
/// then known, as the approximate mark says.
///
/// Containers are made where they lie (``JSON/editObject(_:)``, ``JSON/editArray(_:)``), so
/// a change placed deep in a large state copies nothing.
extension StateRebuilder {
  /// Places `change`, whose path (under its store's scope) is `path`, in `state`.
  static func place(_ change: Change, at path: StatePath, in state: inout JSON) {
    guard !path.components.isEmpty else { return }
    var scaffolded = change
    if change.op == .replace, case .id(let id)? = path.components.last {
      // An element no earlier change inserted: known only from now on.
      scaffolded.op = .insert
      scaffolded.new = change.new ?? ["id": id]
    }
    make(path.components[...], in: &state)
    try? scaffolded.apply(to: &state, at: path.components[...])
  }

  /// Makes the containers along `components` that are missing, all but the last component's
  /// own value: each made container is what the component after it needs (an array for
  /// `[id: X]` or `[i]`, else an object).
  private static func make(_ components: ArraySlice<StatePath.Component>, in value: inout JSON) {
    guard components.count > 1, let first = components.first else { return }
    let rest = components.dropFirst()
    switch first {
    case .field(let name), .key(let name):
      _ = value.editObject { (object: inout JSONObject) in
        if let index = object.position(spelled: name) {
          make(rest, in: &object.members[index].value)
        } else {
          var child = container(for: rest.first)
          make(rest, in: &child)
          object.append(name, child)
        }
      }
    case .id(let id):
      _ = value.editArray { (array: inout [JSON]) in
        if let position = JSONEditing.position(of: id, in: array) {
          make(rest, in: &array[position])
        } else {
          var element: JSON = ["id": id]
          make(rest, in: &element)
          array.append(element)
        }
      }
    case .index(let index):
      _ = value.editArray { (array: inout [JSON]) in
        // A positional element never seen is left unmade.
        if index < array.count { make(rest, in: &array[index]) }
      }
    }
    // A value of another shape on the way is left as it is.
  }

  private static func container(for component: StatePath.Component?) -> JSON {
    switch component {
    case .id?, .index?: .array([])
    default: .object(JSONObject())
    }
  }
}
