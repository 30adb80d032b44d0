import Foundation

// TEMPORARY: replaced by the real rendered-form decoder (branch rendered-decoder) at merge.
public struct RenderedDecoder: Sendable {
  public init() {}
  public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws(RenderedDecodingError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(json.jsonText.utf8))
    } catch {
      throw RenderedDecodingError(typeName: TypeName.of(T.self), path: "", reason: "\(error)")
    }
  }
}

public struct RenderedDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  public var typeName: String
  public var path: String
  public var reason: String
  public var description: String { "Cannot decode \(typeName): at '\(path)': \(reason)" }
}
