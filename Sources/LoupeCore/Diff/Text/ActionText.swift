/// How an action reads to a person: its label, then its payload.
///
/// The label names the outermost case (`AppFeature.Action.rows`); the payload is the rendered
/// value of what the case carries. With the action's ``ValueShape`` it reads as Swift —
/// `AppFeature.Action.rows(.element(id: 1, action: .startTapped))`,
/// `PlayerFeature.Action.seeked(to: 3)` — and without one (traces written before shapes) in
/// value text: `AppFeature.Action.rows({element: {id: 1, action: "startTapped"}})`. An action
/// with no payload (or whose rendered value is just its case name) is its label alone.
public enum ActionText {
  /// The payload after the label: `"(.element(id: 1, action: .startTapped))"`, `"([0])"`,
  /// `" {…}"`, or `nil` when there is none.
  public static func payload(label: String, value: JSON, shape: ValueShape? = nil, maxLength: Int = 120) -> String? {
    // The part after the last dot (no array of pieces: this runs for every action shown).
    let caseName = label.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(label[label.utf8.index(after: $0)...]) } ?? label
    let tree = ShapeTree.of(shape)
    if let (name, payload) = ShapeTree.enumCase(value, tree), name == caseName {
      guard let (payload, payloadTree) = payload else { return nil }
      return "(" + ValueText.payload(payload, tree: payloadTree, maxLength: maxLength) + ")"
    }
    switch value {
    case .null: return nil
    case .string(let name) where name == caseName || name == label: return nil
    case .object(let object) where object.count == 1 && object.members[0].key == caseName:
      return "(" + ValueText.compact(object.members[0].value, tree: tree?.member(caseName), maxLength: maxLength) + ")"
    default:
      return " " + ValueText.compact(value, tree: tree, maxLength: maxLength)
    }
  }

  /// The label followed by its payload: `AppFeature.Action.rows(.element(id: 1, action: .startTapped))`.
  public static func text(label: String, value: JSON, shape: ValueShape? = nil, maxLength: Int = 120) -> String {
    label + (payload(label: label, value: value, shape: shape, maxLength: maxLength) ?? "")
  }

  /// The text of an `action.received` event's action.
  public static func text(_ event: ActionReceived, maxLength: Int = 120) -> String {
    text(label: event.action, value: event.value, shape: event.shape, maxLength: maxLength)
  }
}
