
/// How types, key paths and cancel ids are named in events.
enum TypeNames {
  /// A type's name as a reader writes it: `PageFeature`, `AppFeature.State`, `Box<Int>`; a
  /// `private` type keeps its own name (`PlayerList`, not `(PlayerList in _5E3…)`), and a type
  /// declared inside a function is named by itself (no `(unknown context at $…)`).
  static func name(of type: Any.Type) -> String {
    TypeName.of(type)
  }

  /// The store type name of a root store: the reducer's type, or, for the package's own
  /// reducers (`Reduce`, `CombineReducers`, …), the state's type without a trailing `.State`.
  static func storeType<R: Reducer>(of reducer: R.Type) -> String {
    if let wrapper = reducer as? any NamedAfterWrappedReducer.Type { return wrapper.storeTypeName }
    guard reducer is any BuiltInReducer.Type else { return name(of: reducer) }
    let state = name(of: R.State.self)
    return state.hasSuffix(".State") ? String(state.dropLast(".State".count)) : state
  }

  /// `PageFeature.CancelID.timer` for an enum case, the string itself for a `String`, the
  /// description otherwise (`TimerID()`).
  static func cancelIDText(_ id: Any) -> String {
    if let string = id as? String { return string }
    if let wrapper = id as? AnyHashableSendable { return cancelIDText(wrapper.base) }
    if let caseName = CaseReflection.caseName(of: id) {
      return "\(name(of: type(of: id))).\(caseName)"
    }
    return String(describing: id)
  }
}

/// Reducers defined by this package: named after their state when they are a store's root.
protocol BuiltInReducer {}

/// Reducers that wrap another (`_printChanges()`): a store is named after the wrapped one.
protocol NamedAfterWrappedReducer {
  static var storeTypeName: String { get }
}

/// Turns key paths into state paths (`\AppFeature.State.detail` → `detail`), once per key path.
@MainActor
enum KeyPathNames {
  private static var cache: [AnyKeyPath: StatePath] = [:]

  static func path(of keyPath: AnyKeyPath) -> StatePath {
    if let cached = cache[keyPath] { return cached }
    let path = parse(stableDescription(of: keyPath))
    cache[keyPath] = path
    return path
  }

  /// The key path's state path as text, for messages (callable from any context).
  nonisolated static func describe(_ keyPath: AnyKeyPath) -> String {
    parse(stableDescription(of: keyPath)).description
  }

  /// The key path's description, with each computed component (which prints its getter's
  /// address, different on every run) named `<computed N: Type>`: N numbers the computed key
  /// paths of a root type in the order they are first met (the order the store walks its
  /// reducer's scopes, the same on every run), Type is the key path's value type.
  nonisolated static func stableDescription(of keyPath: AnyKeyPath) -> String {
    let description = String(describing: keyPath)
    if let name = ComputedKeyPaths.names.withLock({ $0[description] }) { return "\\Root." + name }
    guard description.contains("<computed 0x") else { return description }
    let number = ComputedKeyPaths.number(of: description, root: type(of: keyPath).rootType)
    let label = "<computed \(number): \(TypeNames.name(of: type(of: keyPath).valueType))>"
    // The computed components' text, from the first one on, becomes the label.
    guard let start = description.range(of: "<computed 0x") else { return description }
    return description[..<start.lowerBound] + label
  }

  /// Names a key path the description cannot name (`\.$alert.wrappedValue` → `alert`).
  nonisolated static func name(_ keyPath: AnyKeyPath, _ name: String) {
    ComputedKeyPaths.names.withLock { $0[String(describing: keyPath)] = name }
  }

  /// `\Root.a.b` → `a.b`. Computed properties and other non-field components (which the key
  /// path prints as `<computed …>`) keep their printed text as one field.
  nonisolated static func parse(_ description: String) -> StatePath {
    var text = Substring(description)
    if text.hasPrefix("\\") { text = text.dropFirst() }
    var depth = 0
    var start: Substring.Index?
    for index in text.indices {
      switch text[index] {
      case "<": depth += 1
      case ">": depth -= 1
      case "." where depth == 0:
        start = text.index(after: index)
      default: break
      }
      if start != nil { break }
    }
    guard let start else { return StatePath([.field(String(text))]) }
    let rest = String(text[start...].filter { $0 != "?" && $0 != "!" })
    if let path = try? StatePath(parsing: rest) { return path }
    return StatePath([.field(rest)])
  }
}

/// The numbers of computed key paths, per root type, in the order they were first named.
enum ComputedKeyPaths {
  /// By root type: the descriptions met (the getters' addresses tell them apart in a run).
  private static let numbers = Lock<[ObjectIdentifier: [String]]>([:])
  /// Names given to key paths by description (``KeyPathNames/name(_:_:)``).
  static let names = Lock<[String: String]>([:])

  static func number(of description: String, root: Any.Type) -> Int {
    let root = ObjectIdentifier(root)
    return numbers.withLock { numbers in
      if let index = numbers[root]?.firstIndex(of: description) { return index + 1 }
      numbers[root, default: []].append(description)
      return numbers[root]!.count
    }
  }
}
