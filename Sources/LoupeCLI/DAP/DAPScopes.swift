import LoupeCore
import LoupeSession

/// The rows of the `Changes` and `Effects` scopes, and how a JSON value shows as a variable.
enum DAPScopes {
  static func scope(_ name: String, _ reference: Int, hint: String? = nil, value: JSON?) -> JSONObject {
    var scope: JSONObject = ["name": .string(name), "variablesReference": .int(reference), "expensive": false]
    if let hint { scope["presentationHint"] = .string(hint) }
    switch value {
    case .object(let object)?: scope["namedVariables"] = .int(object.count)
    case .array(let array)?: scope["indexedVariables"] = .int(array.count)
    default: break
    }
    return scope
  }

  static func scope(_ name: String, _ reference: Int, named: Int) -> JSONObject {
    ["name": .string(name), "variablesReference": .int(reference), "namedVariables": .int(named), "expensive": false]
  }

  /// The changes an event made: its own (`state.changed`), or those of the `state.changed`
  /// events it caused (an action), each with the store it changed.
  static func changes(for index: Int, in model: SessionModel) -> [(store: String, change: Change)] {
    let event = model.event(at: index)
    if case .stateChanged(let e) = event.payload { return e.changes.map { (e.store, $0) } }
    guard case .actionReceived = event.payload else { return [] }
    var result: [(store: String, change: Change)] = []
    for consequence in model.consequences(of: index) {
      if case .stateChanged(let e) = model.event(at: consequence).payload {
        result += e.changes.map { (e.store, $0) }
      }
    }
    return result
  }

  /// `count: 0 → 1`, expandable into `old` and `new`.
  static func variable(for item: (store: String, change: Change), references: inout DAPReferences) -> DAPVariable {
    let change = item.change
    let path = change.path.isEmpty ? "(whole state)" : change.path
    let text: String
    switch change.op {
    case .replace: text = "\(preview(change.old, shape: change.oldShape)) → \(preview(change.new, shape: change.newShape))"
    case .insert: text = "inserted \(preview(change.new, shape: change.newShape))"
    case .remove: text = "removed \(preview(change.old, shape: change.oldShape))"
    }
    var children: [DAPVariable] = []
    if let old = change.old {
      children.append(variable(named: "old", old, shape: change.oldShape, store: nil, path: nil, references: &references))
    }
    if let new = change.new {
      children.append(variable(named: "new", new, shape: change.newShape, store: nil, path: nil, references: &references))
    }
    children.append(DAPVariable(name: "store", value: item.store))
    let reference = references.add(.list(children))
    return DAPVariable(name: path, value: text, type: change.op.rawValue, variablesReference: reference, namedVariables: children.count)
  }

  /// `effect 3`: `started by #12 PageFeature.Action.onAppear, cancel id PageFeature.CancelID.timer`.
  static func variable(forEffectAt index: Int, in model: SessionModel, references: inout DAPReferences) -> DAPVariable {
    let event = model.event(at: index)
    guard case .effectStarted(let e) = event.payload else { return DAPVariable(name: "#\(event.seq)", value: event.kind) }
    var text = "started at #\(event.seq)"
    if let cause = model.index(ofSeq: e.cause), case .actionReceived(let action) = model.event(at: cause).payload {
      text += " by \(action.action)"
    }
    if let id = e.cancelID { text += ", cancel id \(id)" }
    if let source = e.source { text += ", \(source.shortDescription)" }
    let fields = model.eventJSON(at: index)
    let reference = references.add(.value(fields, store: nil, path: nil))
    return DAPVariable(name: "effect \(e.effect)", value: text, variablesReference: reference, namedVariables: fields.objectValue?.count)
  }

  /// A row for `value`; containers get a reference whose children load when expanded.
  static func variable(
    named name: String, _ value: JSON, shape: ValueShape? = nil, store: String?, path: StatePath?, references: inout DAPReferences
  ) -> DAPVariable {
    var row = DAPVariable(name: name, value: preview(value, shape: shape), type: value.typeName)
    if let path, !path.components.isEmpty { row.evaluateName = path.description }
    switch value {
    case .object(let object) where !object.isEmpty:
      row.variablesReference = references.add(.value(value, shape: shape, store: store, path: path))
      row.namedVariables = object.count
    case .array(let array) where !array.isEmpty:
      row.variablesReference = references.add(.value(value, shape: shape, store: store, path: path))
      row.indexedVariables = array.count
    default:
      break
    }
    return row
  }

  /// A one-line preview, as Swift reads (protocol/values.md "Text forms", the same text `loupe
  /// show` and `loupe state` print): `nil`, `"text"`, `{theme: "dark", mode: .playing(1.5)}`,
  /// enum cases and tuples as the value's shape says (`.loading(progress: 0.5)`), cut to
  /// `limit` characters with `…`; an array by its size (`[3 elements]`: its rows list them).
  static func preview(_ value: JSON?, shape: ValueShape? = nil, limit: Int = 120) -> String {
    guard let value else { return "—" }
    if case .array(let array) = value, !(shape.map { $0.enums.contains("") || $0.tuples.contains("") } ?? false) {
      return "[\(array.count) element\(array.count == 1 ? "" : "s")]"
    }
    return ValueText.compact(value, shape: shape, maxLength: limit)
  }
}
