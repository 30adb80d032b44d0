/// How an action reads to a person: its label, then its payload (`rowsDeleted([0])`).
///
/// The label names the outermost case (`PageFeature.Action.timerTicked`); the payload is the
/// rendered value of what the case carries, in value text. An action with no payload (or
/// whose rendered value is just its case name) is its label alone.
public enum ActionText {
  /// The payload after the label: `"([0])"`, `" {…}"`, or `nil` when there is none.
  public static func payload(label: String, value: JSON, maxLength: Int = 120) -> String? {
    // The part after the last dot (no array of pieces: this runs for every action shown).
    let caseName = label.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(label[label.utf8.index(after: $0)...]) } ?? label
    switch value {
    case .null: return nil
    case .string(let name) where name == caseName || name == label: return nil
    case .object(let object) where object.count == 1 && object.members[0].key == caseName:
      return "(" + ValueText.compact(object.members[0].value, maxLength: maxLength) + ")"
    default:
      return " " + ValueText.compact(value, maxLength: maxLength)
    }
  }

  /// The label followed by its payload: `GameFeature.Action.rowsDeleted([0])`.
  public static func text(label: String, value: JSON, maxLength: Int = 120) -> String {
    label + (payload(label: label, value: value, maxLength: maxLength) ?? "")
  }
}
