import LoupeCore

/// A JSON-RPC request id: an integer or a string, echoed unchanged in the response.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
  case int(Int)
  case string(String)

  /// The id from its JSON form; `nil` for anything but an integer or a string.
  public init?(json: JSON) {
    switch json {
    case .int(let value): self = .int(value)
    case .string(let value): self = .string(value)
    default: return nil
    }
  }

  public var json: JSON {
    switch self {
    case .int(let value): .int(value)
    case .string(let value): .string(value)
    }
  }

  public func encode(into w: inout JSONWriter) {
    switch self {
    case .int(let value): w.int(value)
    case .string(let value): w.string(value)
    }
  }

  public var description: String { json.jsonText }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(stringLiteral value: String) { self = .string(value) }
}
