import LoupeCore

/// The JSON Schemas of the tools' inputs and outputs, built from a few helpers, and a
/// validator for the part of JSON Schema they use (`type`, `properties`, `required`,
/// `additionalProperties`, `items`, `enum`, `minimum`, `maximum`), so that every argument a
/// tool reads has been checked against the schema `tools/list` published.
enum JSONSchema {
  static func object(_ properties: [(String, JSON)], required: [String] = [], description: String? = nil, closed: Bool = true) -> JSON {
    var object: JSONObject = ["type": "object"]
    if let description { object.append("description", .string(description)) }
    object.append("properties", .object(JSONObject(properties.map { JSONObject.Member($0.0, $0.1) })))
    if !required.isEmpty { object.append("required", .array(required.map(JSON.string))) }
    if closed { object.append("additionalProperties", false) }
    return .object(object)
  }

  static func string(_ description: String, enum values: [String]? = nil) -> JSON {
    var object: JSONObject = ["type": "string", "description": .string(description)]
    if let values { object.append("enum", .array(values.map(JSON.string))) }
    return .object(object)
  }

  static func integer(_ description: String, minimum: Int? = nil, maximum: Int? = nil) -> JSON {
    var object: JSONObject = ["type": "integer", "description": .string(description)]
    if let minimum { object.append("minimum", .int(minimum)) }
    if let maximum { object.append("maximum", .int(maximum)) }
    return .object(object)
  }

  static func boolean(_ description: String) -> JSON {
    ["type": "boolean", "description": .string(description)]
  }

  static func array(_ items: JSON, description: String? = nil) -> JSON {
    var object: JSONObject = ["type": "array", "items": items]
    if let description { object.append("description", .string(description)) }
    return .object(object)
  }

  static func stringArray(_ description: String) -> JSON {
    array(["type": "string"], description: description)
  }

  /// An object of string values (an environment).
  static func stringMap(_ description: String) -> JSON {
    ["type": "object", "description": .string(description), "additionalProperties": ["type": "string"]]
  }

  /// Any JSON value (a rendered state), described.
  static func any(_ description: String) -> JSON {
    ["description": .string(description)]
  }

  /// A value that is `null` or of `type`.
  static func nullable(_ type: String, _ description: String) -> JSON {
    ["type": .array([.string(type), "null"]), "description": .string(description)]
  }

  // MARK: Validation

  /// The first way `value` breaks `schema`, as a sentence naming the argument, or `nil`.
  static func violation(of schema: JSON, by value: JSON, at path: String) -> String? {
    if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
      return "'\(path)' must be one of \(allowed.map(\.jsonText).joined(separator: ", ")), not \(value.jsonText)"
    }
    let types: [String]
    switch schema["type"] {
    case .string(let type)?: types = [type]
    case .array(let list)?: types = list.compactMap(\.stringValue)
    default: return nil
    }
    guard let type = types.first(where: { matches(value, $0) }) else {
      return "'\(path)' must be \(types.map(article).joined(separator: " or ")), not \(article(value.typeName))"
    }
    switch type {
    case "integer":
      let number = value.intValue!
      if let minimum = schema["minimum"]?.intValue, number < minimum { return "'\(path)' must be at least \(minimum), not \(number)" }
      if let maximum = schema["maximum"]?.intValue, number > maximum { return "'\(path)' must be at most \(maximum), not \(number)" }
    case "array":
      if let items = schema["items"] {
        for (index, element) in value.arrayValue!.enumerated() {
          if let problem = violation(of: items, by: element, at: "\(path)[\(index)]") { return problem }
        }
      }
    case "object":
      let object = value.objectValue!
      let properties = schema["properties"]?.objectValue ?? JSONObject()
      for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
        return "'\(join(path, name))' is required"
      }
      for member in object {
        if let property = properties[member.key] {
          if let problem = violation(of: property, by: member.value, at: join(path, member.key)) { return problem }
        } else if let additional = schema["additionalProperties"] {
          if additional == .bool(false) {
            let known = properties.keys.map { "'\($0)'" }.joined(separator: ", ")
            return "unknown argument '\(join(path, member.key))'\(known.isEmpty ? "" : "; the arguments are \(known)")"
          }
          if let problem = violation(of: additional, by: member.value, at: join(path, member.key)) { return problem }
        }
      }
    default:
      break
    }
    return nil
  }

  private static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

  private static func matches(_ value: JSON, _ type: String) -> Bool {
    switch (type, value) {
    case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array), ("object", .object): true
    case ("number", .int), ("number", .double): true
    case ("integer", .int): true
    case ("integer", .double(let d)): value.intValue != nil && d.rounded() == d
    default: false
    }
  }

  private static func article(_ type: String) -> String {
    switch type {
    case "integer", "array", "object": "an \(type)"
    case "null": "null"
    default: "a \(type)"
    }
  }
}
