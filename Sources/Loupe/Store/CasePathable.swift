/// An enum whose cases are reached by key paths, as TCA spells them without its macro:
/// `\.factResponse.success`, `\.rows[id: 2].addTapped`, `\.alert.dismiss`.
///
/// Declare the case paths once, in a struct named `AllCasePaths` inside the enum, one `let` per
/// case (what TCA's `@CasePathable` macro writes for you):
///
/// ```swift
/// enum Action: CasePathable {
///   case factResponse(Result<String, any Error>)
///   case rows(IdentifiedAction<Int, Row.Action>)
///   case timerTicked
///
///   struct AllCasePaths: CasePathList {
///     let factResponse = CasePath(Action.factResponse)
///     let rows = CasePath(Action.rows)
///     let timerTicked = CasePath(case: Action.timerTicked)
///   }
/// }
///
/// Scope(state: \.row, action: \.rows) { Row() }
/// await store.receive(\.factResponse.success) { $0.fact = "…" }
/// await store.send(\.rows[id: 2].addTapped)
/// ```
///
/// Why a struct and not static properties or a protocol with one requirement per case: a key
/// path literal needs a type to start from and stored properties to name, and `\.x` is
/// TCA's spelling; a key path into `AllCasePaths` is exactly that, with no macro. A payload
/// that is itself `CasePathable` (`Result`, ``IdentifiedAction``, ``PresentationAction``, a
/// child feature's `Action`) continues the path with a `.`; an ``IdentifiedAction`` with
/// `[id:]`. Use `let` (stored) properties: failure messages name the case from the key path.
public protocol CasePathable {
  /// The enum's case paths, one stored property per case.
  associatedtype AllCasePaths: CasePathList
}

/// The struct of an enum's case paths (``CasePathable``): made with `init()`, which a struct
/// whose properties all have initial values has.
public protocol CasePathList {
  init()
}

extension CasePathable {
  /// The case path at `keyPath`, named after it: `Action.casePath(\.factResponse.success)`.
  public static func casePath<Value>(_ keyPath: KeyPath<AllCasePaths, CasePath<Self, Value>>) -> CasePath<Self, Value> {
    var path = AllCasePaths()[keyPath: keyPath]
    path._caseName = CasePathNaming.firstName(of: keyPath).map { $0 + (path._caseName ?? "") } ?? path._caseName
    return path
  }
}

extension CasePath {
  /// Continues the path into a case of the payload: `\.factResponse.success`.
  public subscript<Next>(dynamicMember keyPath: KeyPath<Value.AllCasePaths, CasePath<Value, Next>>) -> CasePath<Root, Next>
  where Value: CasePathable {
    let inner = Value.casePath(keyPath)
    let embed = self.embed
    let extract = self.extract
    return CasePath<Root, Next>(
      embed: { embed(inner.embed($0)) },
      extract: { extract($0).flatMap(inner.extract) },
      name: (_caseName ?? "") + "." + (inner._caseName ?? "?"))
  }

  /// Continues the path into the element with `id`: `\.rows[id: 2].addTapped`.
  public subscript<ID: Hashable, Element>(id id: ID) -> CasePath<Root, Element>
  where Value == IdentifiedAction<ID, Element> {
    let embed = self.embed
    let extract = self.extract
    return CasePath<Root, Element>(
      embed: { embed(.element(id: id, action: $0)) },
      extract: { root in
        guard case .element(let elementID, let action)? = extract(root), elementID == id else { return nil }
        return action
      },
      name: (_caseName ?? "") + "[id: \(ValueRenderer.render(id).jsonText)]")
  }
}

enum CasePathNaming {
  /// The first property a key path names (`factResponse` in `\AllCasePaths.factResponse.success`),
  /// or `nil` when it is computed (the key path prints an address there).
  static func firstName(of keyPath: AnyKeyPath) -> String? {
    var text = Substring(String(describing: keyPath))
    if text.hasPrefix("\\") { text = text.dropFirst() }
    var depth = 0
    for index in text.indices {
      switch text[index] {
      case "<": depth += 1
      case ">": depth -= 1
      case "." where depth == 0:
        let name = text[text.index(after: index)...].prefix { !".<[?!".contains($0) }
        return name.isEmpty ? nil : String(name)
      default: break
      }
    }
    return nil
  }
}

// MARK: - The package's own enums

extension Result: CasePathable {
  public struct AllCasePaths: CasePathList {
    public init() {}
    public var success: CasePath<Result, Success> {
      CasePath(embed: Result.success, extract: { if case .success(let value) = $0 { value } else { nil } }, name: "success")
    }
    public var failure: CasePath<Result, Failure> {
      CasePath(embed: Result.failure, extract: { if case .failure(let error) = $0 { error } else { nil } }, name: "failure")
    }
  }
}

extension Optional: CasePathable {
  public struct AllCasePaths: CasePathList {
    public init() {}
    public var some: CasePath<Optional, Wrapped> {
      CasePath(embed: Optional.some, extract: { $0 }, name: "some")
    }
    public var none: CasePath<Optional, Void> {
      CasePath(embed: { Optional.none }, extract: { $0 == nil ? () : nil }, name: "none")
    }
  }
}
