/// A ``ValueShape`` as a tree that the text forms walk alongside the JSON value: at each
/// node, whether the value there is an enum case or a tuple.
///
/// `nil` where nothing is known — no shape was sent (older traces), or none applies below —
/// and then the text is the JSON-like one.
final class ShapeTree {
  private(set) var isEnum = false
  private(set) var isTuple = false
  private var members: [String: ShapeTree] = [:]
  private var elements: [Int: ShapeTree] = [:]
  /// `[*]`: every element or dictionary value.
  private var any: ShapeTree?

  private init() {}

  /// The tree of `shape`; `nil` for no shape. Paths that do not parse are skipped.
  static func of(_ shape: ValueShape?) -> ShapeTree? {
    guard let shape, !shape.isEmpty else { return nil }
    let root = ShapeTree()
    for path in shape.enums { root.insert(path)?.isEnum = true }
    for path in shape.tuples { root.insert(path)?.isTuple = true }
    return root
  }

  private func insert(_ path: String) -> ShapeTree? {
    guard let steps = try? StatePath.parse(path, wildcards: true) else { return nil }
    var node = self
    for step in steps {
      switch step {
      case nil: node = node.any ?? { let child = ShapeTree(); node.any = child; return child }()
      case .field(let name)?, .key(let name)?:
        node = node.members[name] ?? { let child = ShapeTree(); node.members[name] = child; return child }()
      case .index(let index)?:
        node = node.elements[index] ?? { let child = ShapeTree(); node.elements[index] = child; return child }()
      case .id?:
        return nil  // a shape names elements by position or `[*]`, never by id
      }
    }
    return node
  }

  /// The node of the object member `key` (a struct field, an enum case's payload, a
  /// dictionary value).
  func member(_ key: String) -> ShapeTree? { members[key] ?? any }

  /// The node of array element `index`.
  func element(_ index: Int) -> ShapeTree? { elements[index] ?? any }

  /// For an enum case node holding `value`: the case name and, for a case with a payload,
  /// the payload and its node. `nil` when the value does not have a case's form (`null`, a
  /// marker such as `"<redacted>"`): then it prints as it is.
  static func enumCase(_ value: JSON, _ tree: ShapeTree?) -> (name: String, payload: (JSON, ShapeTree?)?)? {
    guard let tree, tree.isEnum else { return nil }
    switch value {
    case .string(let name) where StatePath.Component.isIdentifier(name):
      return (name, nil)
    case .object(let object) where object.count == 1 && StatePath.Component.isIdentifier(object.members[0].key):
      let name = object.members[0].key
      return (name, (object.members[0].value, tree.member(name)))
    default:
      return nil
    }
  }

  /// Whether `value` at `tree` is a tuple in a form that prints as one: `(1, "a")`,
  /// `(x: 1, y: 2)`.
  static func isTuple(_ value: JSON, _ tree: ShapeTree?) -> Bool {
    guard let tree, tree.isTuple else { return false }
    switch value {
    case .array, .object: return true
    default: return false
    }
  }

  /// The label of a tuple element: `""` for a position (`"0"`, `"1"`, …), else the name.
  static func argumentLabel(_ key: String) -> String {
    key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) && !key.isEmpty ? "" : ValueText.memberName(key) + ": "
  }
}
