import LoupeCore
import LoupeSession

/// How big an answer may be: what keeps every `loupe mcp` result small enough for a model's
/// context, whatever the program or trace holds.
///
/// The defaults (documented in `protocol/mcp.md`):
/// - a result's text is at most **8,000 characters** (about 2,000 tokens); past that it is cut
///   at a line break and says so;
/// - a timeline shows **50 events** unless asked (at most 500), each on one line of at most
///   **300 characters**;
/// - a list (stores, effects, findings, rows of stats) shows at most **40 rows**;
/// - a state value shows at most **20 members or elements** per level and **4 levels** deep,
///   strings up to **200 characters**; what is left out is listed with the paths to ask for.
struct AnswerBudget: Sendable {
  var maximumCharacters = 8_000
  var maximumLineLength = 300
  var timelineLimit = 50
  var timelineMaximumLimit = 500
  var listLimit = 40
  var valueMembers = 20
  var valueDepth = 4
  var valueStringLength = 200

  /// `text`, cut at a line break to fit ``maximumCharacters``, saying where it was cut.
  func fit(_ text: String) -> String {
    guard text.count > maximumCharacters else { return text }
    var kept = ""
    var count = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if count + line.count + 1 > maximumCharacters - 120 { break }
      kept += line + "\n"
      count += line.count + 1
    }
    let left = text.count - count
    return kept
      + "… [answer cut at \(Formatting.count(maximumCharacters)) characters; \(Formatting.count(left)) more were left out: ask for less (a smaller limit, a narrower filter or path)]\n"
  }

  /// One line, cut to ``maximumLineLength``.
  func line(_ text: String) -> String {
    Formatting.truncate(text, limit: maximumLineLength)
  }

  /// A part of a value that was left out of an answer, and the path that asks for it.
  struct Elision: Sendable, Equatable {
    var path: String
    /// What is missing, e.g. `9,980 more elements`.
    var what: String

    var json: JSON { ["path": .string(path), "omitted": .string(what)] }
  }

  /// `value` (found at `path`) cut to the budget: containers beyond ``valueDepth`` become a
  /// count, containers over ``valueMembers`` keep their first members, long strings are cut.
  /// Returns the cut value and what was left out, with paths to ask for it.
  func summarize(_ value: JSON, at path: StatePath) -> (value: JSON, elided: [Elision]) {
    var elided: [Elision] = []
    let cut = summarize(value, path: path, depth: 0, elided: &elided)
    return (cut, elided)
  }

  private func summarize(_ value: JSON, path: StatePath, depth: Int, elided: inout [Elision]) -> JSON {
    switch value {
    case .string(let text) where text.count > valueStringLength:
      elided.append(Elision(path: path.description, what: "\(Formatting.count(text.count - valueStringLength)) more characters of a string"))
      return .string(String(text.prefix(valueStringLength)) + "…")
    case .array(let elements) where !elements.isEmpty:
      if depth >= valueDepth {
        elided.append(Elision(path: path.description, what: "an array of \(Formatting.plural(elements.count, "element"))"))
        return .array([])
      }
      var kept: [JSON] = []
      for (index, element) in elements.prefix(valueMembers).enumerated() {
        kept.append(summarize(element, path: path / elementComponent(element, index), depth: depth + 1, elided: &elided))
      }
      if elements.count > valueMembers {
        let next = path / elementComponent(elements[valueMembers], valueMembers)
        elided.append(
          Elision(
            path: path.description,
            what: "\(Formatting.count(elements.count - valueMembers)) more elements of \(Formatting.count(elements.count)) (the next is \(next))"))
      }
      return .array(kept)
    case .object(let object) where !object.isEmpty:
      if depth >= valueDepth {
        elided.append(Elision(path: path.description, what: "an object of \(Formatting.plural(object.count, "member"))"))
        return .object(JSONObject())
      }
      var kept = JSONObject()
      for member in object.members.prefix(valueMembers) {
        kept.append(member.key, summarize(member.value, path: path / .member(member.key), depth: depth + 1, elided: &elided))
      }
      if object.count > valueMembers {
        let rest = object.members.dropFirst(valueMembers).prefix(3).map(\.key).joined(separator: ", ")
        elided.append(
          Elision(
            path: path.description,
            what: "\(Formatting.count(object.count - valueMembers)) more members of \(Formatting.count(object.count)) (\(rest)\(object.count - valueMembers > 3 ? ", …" : ""))"))
      }
      return .object(kept)
    default:
      return value
    }
  }

  /// The path component that names an element: `[id: …]` for an element with an `id`, else `[i]`.
  private func elementComponent(_ element: JSON, _ index: Int) -> StatePath.Component {
    switch element["id"] {
    case .int(let id)?: return .id(.int(id))
    case .string(let id)?: return .id(.string(id))
    default: return .index(index)
    }
  }
}
