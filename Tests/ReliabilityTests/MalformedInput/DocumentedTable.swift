import Foundation
import LoupeCore

/// `docs/malformed-input.md`'s tables, made from the cases themselves so the page cannot drift
/// from what is tested.
extension MalformedInput {
  static let documentPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/malformed-input.md").path

  static let beginMarker = "<!-- cases: generated from Tests/ReliabilityTests/MalformedInput; do not edit -->"
  static let endMarker = "<!-- cases: end -->"

  /// The generated part of the page.
  static func markdown() -> String {
    var text = beginMarker + "\n"
    let sections: [(String, String, [WireCase])] = [
      ("Frames", "Each on a new connection. The program closes that connection (its frame decoder reports the error shown), then serves a new one.", frames),
      ("Messages", "On an initialized connection (unless said). The answer is exact; the same connection then answers `loupe/stores`.", messages),
      ("Params", "Answered `-32602` naming what is wrong; the connection goes on.", params),
    ]
    for (title, lead, cases) in sections {
      text += "\n### \(title) (\(cases.count))\n\n\(lead)\n\n| case | bytes sent | outcome |\n|---|---|---|\n"
      for item in cases {
        var input = shown(item.bytes)
        if !item.initialized { input = "(before `initialize`) " + input }
        if item.halfClose { input += " then end of input" }
        text += "| `\(item.id)` | \(input) | \(outcome(item.outcome)) |\n"
      }
    }
    let commands: [(String, String, [CommandCase])] = [
      ("Trace files (\(traces.count))", "Read by `loupe`; `{dir}` is a scratch directory holding the file.", traces),
      ("Command lines (\(commandLines.count))", "Nothing is launched or written when the command line is wrong.", commandLines),
      ("Environment (\(environments.count))", "A program (`loupe-examples probe --burst 3`) with unusable settings prints one line and runs to the end with status 0.", environments),
    ]
    for (title, lead, cases) in commands {
      text += "\n### \(title)\n\n\(lead)\n\n| case | run | status | standard error |\n|---|---|---|---|\n"
      for item in cases {
        var run = (item.executable == "loupe" ? ["loupe"] : ["loupe-examples"]) + item.arguments
        run = run.map { $0.count > 40 ? String($0.prefix(37)) + "…" : $0 }
        var command = run.joined(separator: " ")
        if !item.environment.isEmpty {
          command = item.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(short($0.value))" }.joined(separator: " ") + " " + command
        }
        if !item.files.isEmpty { command += " (file: " + shown(item.files[0].bytes) + ")" }
        let stderr = (item.stderr ?? item.stderrContains.joined(separator: " … ")).split(separator: "\n").first.map(String.init) ?? ""
        text += "| `\(item.id)` | \(cell(command)) | \(item.status) | \(stderr.isEmpty ? "(nothing)" : cell(middleCut(stderr))) |\n"
      }
    }
    return text + "\n" + endMarker
  }

  private static func outcome(_ outcome: WireCase.Outcome) -> String {
    switch outcome {
    case .closes(let error): "connection closed: \(cell(error.description))"
    case .answers(let json), .answersThenRefuses(let json):
      if let answer = try? JSONParser.parse(json), let items = answer.arrayValue {
        "one array: " + items.map(errorText).joined(separator: "; ")
      } else {
        (try? JSONParser.parse(json)).map(errorText) ?? json
      }
    case .noAnswer: "no answer"
    }
  }

  private static func errorText(_ json: JSON) -> String {
    guard let error = json["error"] else { return "result, id \(json["id"]?.jsonText ?? "?")" }
    return "`\(error["code"]?.jsonText ?? "?")` \(cell(short(error["message"]?.stringValue ?? "", 140))), id \(json["id"]?.jsonText ?? "?")"
  }

  /// Bytes as a table cell: printable text in code, control bytes escaped, long input cut.
  private static func shown(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "(empty)" }
    var text = ""
    for byte in bytes.prefix(70) {
      switch byte {
      case 0x0D: text += "\\r"
      case 0x0A: text += "\\n"
      case 0x20..<0x7F: text += String(UnicodeScalar(byte))
      default: text += String(format: "\\x%02X", byte)
      }
    }
    if bytes.count > 70 { text += "… (\(bytes.count) bytes)" }
    return "`" + text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'") + "`"
  }

  private static func short(_ text: String, _ limit: Int = 40) -> String {
    text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
  }

  /// Long text as its start and its end, which is where messages say what is wrong.
  private static func middleCut(_ text: String) -> String {
    text.count > 200 ? String(text.prefix(90)) + " … " + String(text.suffix(90)) : text
  }

  private static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|")
  }
}
