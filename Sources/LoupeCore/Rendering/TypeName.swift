
/// Type names as a reader writes them: nested and generic, without module prefixes.
///
/// `MyApp.PageFeature.Action` → `PageFeature.Action`,
/// `MyApp.Box<Swift.Int>.Action` → `Box<Int>.Action`,
/// a type declared inside a function → its own name.
package enum TypeName {
  private static let cache = Lock<[ObjectIdentifier: String]>([:])

  package static func of(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = cache.withLock({ $0[key] }) { return name }
    let name = clean(String(reflecting: type))
    cache.withLock { $0[key] = name }
    return name
  }

  /// Removes module qualifiers and the runtime's anonymous-context segments from a
  /// `String(reflecting:)` type name.
  package static func clean(_ reflected: String) -> String {
    var text = Substring(reflected)
    var output = ""
    output.reserveCapacity(reflected.utf8.count)
    // Whether the next identifier starts a new qualified name (as opposed to continuing one
    // after a '.', as in `Box<Int>.Action`).
    var atNameStart = true
    while let first = text.first {
      if first == "(" {
        // `(unknown context at $…)`, `(Name in _HASH)`, `(extension in Module):`
        if let close = text.firstIndex(of: ")") {
          let inner = text[text.index(after: text.startIndex)..<close]
          if inner.hasPrefix("unknown context at ") {
            text = text[text.index(after: close)...]
            if text.first == "." { text = text.dropFirst() }
            continue
          }
          if inner.hasPrefix("extension in ") {
            text = text[text.index(after: close)...]
            if text.first == ":" { text = text.dropFirst() }
            atNameStart = true
            continue
          }
          if let range = inner.range(of: " in _") {
            // A private type: keep its name; it continues the current qualified name.
            output += inner[inner.startIndex..<range.lowerBound]
            text = text[text.index(after: close)...]
            atNameStart = false
            continue
          }
        }
        output.append(first)
        text = text.dropFirst()
        atNameStart = true
        continue
      }
      if isIdentifierStart(first) {
        let end = text.firstIndex(where: { !isIdentifierCharacter($0) }) ?? text.endIndex
        let identifier = text[text.startIndex..<end]
        text = text[end...]
        // Drop a leading module name: an identifier that starts a qualified name and is
        // followed by '.' and another name.
        if atNameStart, text.first == ".", let next = text.dropFirst().first, isIdentifierStart(next) || next == "(" {
          text = text.dropFirst()
          atNameStart = false
          continue
        }
        output += identifier
        atNameStart = false
        continue
      }
      output.append(first)
      text = text.dropFirst()
      atNameStart = first != "."
    }
    return output
  }

  private static func isIdentifierStart(_ c: Character) -> Bool {
    c == "_" || c == "$" || c.isLetter
  }

  private static func isIdentifierCharacter(_ c: Character) -> Bool {
    c == "_" || c == "$" || c.isLetter || c.isNumber
  }
}
