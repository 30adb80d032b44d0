/// A location inside a state value, in the syntax of CONTRACT §6:
///
/// | component | text | example |
/// |---|---|---|
/// | struct field / enum payload label | `name`, `.name` after another component | `settings.theme` |
/// | positional element | `[3]` | `results[3]` |
/// | identified element (`Identifiable`) | `[id: 2]`, `[id: "a"]` (the id's compact JSON) | `pages[id: 2].count` |
/// | dictionary entry | `["key"]` (the rendered key, as a JSON string) | `settings["theme"]` |
///
/// The empty path (`""`) is the whole state.
public struct StatePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
  public enum Component: Sendable, Hashable {
    case field(String)
    case index(Int)
    case id(JSON)
    case key(String)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) { self.components = components }

  public static let root = StatePath()

  public var isRoot: Bool { components.isEmpty }

  public func appending(_ component: Component) -> StatePath {
    var copy = self
    copy.components.append(component)
    return copy
  }

  public static func / (lhs: StatePath, rhs: Component) -> StatePath { lhs.appending(rhs) }

  /// Whether `self` is `other` or lies inside it.
  public func hasPrefix(_ other: StatePath) -> Bool {
    components.count >= other.components.count && Array(components.prefix(other.components.count)) == other.components
  }

  public var description: String { Self.text(of: components) }

  /// The text of `components`: written into one string of the right capacity when they are
  /// fields, positions and integer ids (the diff names a change this way on every action),
  /// else appended component by component.
  static func text(of components: [Component]) -> String {
    var capacity = 0
    for component in components {
      switch component {
      case .field(let name): capacity += name.utf8.count + 1
      case .index, .id(.int): capacity += 26  // "[id: " + 20 digits and a sign + "]"
      default: return appendedText(of: components)
      }
    }
    return String(unsafeUninitializedCapacity: capacity) { buffer in
      var end = 0
      func put(_ byte: UInt8) {
        buffer[end] = byte
        end += 1
      }
      func put(_ int: Int) {
        if int < 0 { put(UInt8(ascii: "-")) }
        var magnitude = int.magnitude
        let start = end
        repeat {
          put(UInt8(ascii: "0") + UInt8(magnitude % 10))
          magnitude /= 10
        } while magnitude > 0
        buffer[start..<end].reverse()
      }
      for component in components {
        switch component {
        case .field(let name):
          if end > 0 { put(UInt8(ascii: ".")) }
          String.copyUTF8(of: name, to: buffer, at: &end)
        case .index(let index):
          put(UInt8(ascii: "["))
          put(index)
          put(UInt8(ascii: "]"))
        case .id(.int(let id)):
          for byte in "[id: ".utf8 { put(byte) }
          put(id)
          put(UInt8(ascii: "]"))
        default:
          break  // not reached: counted above
        }
      }
      return end
    }
  }

  private static func appendedText(of components: [Component]) -> String {
    var text = ""
    for component in components { append(component, to: &text) }
    return text
  }

  static func append(_ component: Component, to text: inout String) {
    switch component {
    case .field(let name):
      if !text.isEmpty { text += "." }
      text += name
    case .index(let index):
      text += "[\(index)]"
    case .id(let id):
      text += "[id: \(id.jsonText)]"
    case .key(let key):
      text += "[\(JSON.string(key).jsonText)]"
    }
  }

  public init(stringLiteral value: String) {
    // Literals in code are trusted; a malformed one becomes a single field so it never traps.
    self = (try? StatePath(parsing: value)) ?? StatePath([.field(value)])
  }

  public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Parses the text form. Throws for unbalanced brackets, empty field names and bad ids.
  public init(parsing text: String) throws(ParseError) {
    components = try Self.parse(text, wildcards: false).map { $0! }
  }

  /// The components of `text`; with `wildcards`, `[*]` ("every element") is allowed and
  /// parses as `nil` (the syntax of ``ValueShape`` paths).
  static func parse(_ text: String, wildcards: Bool) throws(ParseError) -> [Component?] {
    var components: [Component?] = []
    let bytes = Array(text.utf8)
    var i = 0
    func fail(_ message: String) -> ParseError {
      ParseError(message: "Invalid path '\(text)': \(message) at offset \(i)")
    }
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: "[") {
        // Find the matching ']' outside JSON strings.
        var j = i + 1
        var inString = false
        while j < bytes.count {
          let c = bytes[j]
          if inString {
            if c == UInt8(ascii: "\\") { j += 1 } else if c == UInt8(ascii: "\"") { inString = false }
          } else if c == UInt8(ascii: "\"") {
            inString = true
          } else if c == UInt8(ascii: "]") {
            break
          }
          j += 1
        }
        guard j < bytes.count else { throw fail("unterminated '['") }
        let inner = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
        if wildcards && inner == "*" {
          components.append(nil)
        } else if inner.hasPrefix("id:") {
          let idText = inner.dropFirst(3).drop(while: { $0 == " " })
          guard let id = try? JSONParser.parse(String(idText)) else { throw fail("invalid id '\(idText)'") }
          components.append(.id(id))
        } else if inner.hasPrefix("\"") {
          guard case .string(let key)? = try? JSONParser.parse(inner) else { throw fail("invalid key \(inner)") }
          components.append(.key(key))
        } else if let index = Int(inner), index >= 0 {
          components.append(.index(index))
        } else {
          throw fail("expected [N], [id: …] or [\"key\"], found [\(inner)]")
        }
        i = j + 1
      } else {
        if byte == UInt8(ascii: ".") {
          guard !components.isEmpty else { throw fail("a path cannot start with '.'") }
          i += 1
        } else if !components.isEmpty {
          throw fail("expected '.' or '['")
        }
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "."), bytes[i] != UInt8(ascii: "[") { i += 1 }
        guard i > start else { throw fail("empty field name") }
        components.append(.field(String(decoding: bytes[start..<i], as: UTF8.self)))
      }
    }
    return components
  }
}
