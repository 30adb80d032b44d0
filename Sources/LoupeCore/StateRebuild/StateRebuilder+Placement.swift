/// Rebuilding without a snapshot (a trace from before CONTRACT §10): the state starts empty
/// and is marked approximate, so a change whose containers are not known yet gets them made
/// up — an object for a member, an array holding `{id: X}` for an identified element — and
/// lands where the trace says it goes, instead of being dropped. Only what changes wrote is
/// then known, as the approximate mark says.
extension StateRebuilder {
  static func place(_ change: Change, in state: inout JSON) {
    guard let path = try? StatePath(parsing: change.path), !path.components.isEmpty else { return }
    var scaffolded = change
    if change.op == .replace, case .id(let id)? = path.components.last {
      // An element no earlier change inserted: known only from now on.
      scaffolded.op = .insert
      scaffolded.new = change.new ?? ["id": id]
    }
    make(Array(path.components.dropLast()), in: &state)
    try? scaffolded.apply(to: &state)
  }

  /// Makes the containers along `components` that are missing.
  private static func make(_ components: [StatePath.Component], in value: inout JSON) {
    guard let first = components.first else { return }
    let rest = Array(components.dropFirst())
    switch (first, value) {
    case (.field(let name), .object(var object)), (.key(let name), .object(var object)):
      var child = object[name] ?? container(for: rest.first)
      make(rest, in: &child)
      object[name] = child
      value = .object(object)
    case (.id(let id), .array(var array)):
      if let position = array.firstIndex(where: { $0["id"] == id }) {
        make(rest, in: &array[position])
      } else {
        var element: JSON = ["id": id]
        make(rest, in: &element)
        array.append(element)
      }
      value = .array(array)
    case (.index(let index), .array(var array)) where index < array.count:
      make(rest, in: &array[index])
      value = .array(array)
    default:
      break  // a positional element never seen, or a value of another shape: left as it is
    }
  }

  private static func container(for component: StatePath.Component?) -> JSON {
    switch component {
    case .id?, .index?: .array([])
    default: .object(JSONObject())
    }
  }
}
