/// An identified array codes as the array of its elements, as it renders (and as
/// swift-identified-collections codes it).
extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

/// Decodes from the array of its elements; two elements with the same id are an error (the
/// array could not hold both).
extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  public init(from decoder: any Decoder) throws {
    let elements = try decoder.singleValueContainer().decode([Element].self)
    var seen: Set<ID> = []
    for (index, element) in elements.enumerated() where !seen.insert(element.id).inserted {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "element \(index) repeats the id \(element.id)"))
    }
    self.init(uniqueElements: elements)
  }
}
