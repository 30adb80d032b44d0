import Foundation

/// An index set renders as the array of its integers in increasing order, capped at
/// ``RenderOptions/maxCollectionCount`` like any array: `[0,1,2,7]` (its own storage is a
/// list of ranges).
extension IndexSet: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON { renderer.renderElements(self, count: count) }
}

/// An attributed string without attributes renders as its text. With attributes, it is an
/// array of its runs: `{"text": "hi", "attributes": {"NSLink": "https://example.com"}}`, a run
/// without attributes as `{"text": " there"}`. Attributes are sorted by name; their values
/// show as their descriptions (Foundation offers no way to list a run's attributes other than
/// describing them).
extension AttributedString: BuiltinRenderable {
  func render(in renderer: inout Renderer) -> JSON {
    let plain = AttributeContainer()
    if runs.allSatisfy({ $0.attributes == plain }) { return renderer.string(String(characters)) }
    var array: [JSON] = []
    var index = 0
    for run in runs {
      if index == renderer.options.maxCollectionCount || renderer.isOverBudget { break }
      var object = JSONObject()
      object.append("text", renderer.string(String(self[run.range].characters)))
      if run.attributes != plain {
        var attributes = JSONObject()
        for (name, value) in Self.attributes(describedBy: run.attributes.description).sorted(by: { $0.name < $1.name }) {
          attributes.append(name, renderer.string(value))
        }
        object.append("attributes", .object(attributes))
      }
      array.append(.object(object))
      index += 1
    }
    let count = runs.count
    if index < count { array.append(.string(RenderMarker.moreElements(count - index))) }
    return .array(array)
  }

  /// Reads an `AttributeContainer`'s description, one `Name = value` line per attribute
  /// between braces; a line that does not start a new attribute continues the last value.
  static func attributes(describedBy description: String) -> [(name: String, value: String)] {
    var attributes: [(name: String, value: String)] = []
    var last: (key: String, value: String)?
    for line in description.split(separator: "\n", omittingEmptySubsequences: true) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed == "{" || trimmed == "}" { continue }
      if line.hasPrefix("\t"), !line.hasPrefix("\t\t"), let equals = trimmed.range(of: " = ") {
        if let last { attributes.append((last.key, last.value)) }
        last = (String(trimmed[..<equals.lowerBound]), String(trimmed[equals.upperBound...]))
      } else if let current = last {
        last = (current.key, current.value + "\n" + trimmed)
      }
    }
    if let last { attributes.append((last.key, last.value)) }
    return attributes
  }
}
