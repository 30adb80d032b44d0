/// Line 1 of a trace file (CONTRACT §7):
/// `{"format":"loupe-trace","version":1,"program":"MyApp","pid":4242,"startedAt":"2026-…Z"}`.
public struct TraceHeader: Sendable, Hashable {
  /// The `format` every trace declares.
  public static let format = "loupe-trace"
  /// The version this build writes, and the newest it reads.
  public static let currentVersion = 1

  public var version: Int
  /// The recorded program's name.
  public var program: String
  public var pid: Int
  /// When the recorded session started, ISO 8601.
  public var startedAt: String

  public init(version: Int = TraceHeader.currentVersion, program: String, pid: Int, startedAt: String) {
    self.version = version
    self.program = program
    self.pid = pid
    self.startedAt = startedAt
  }

  /// The header for a recording of the session that `started` opened.
  public init(session started: SessionStarted) {
    self.init(program: started.program, pid: started.pid, startedAt: started.startedAt)
  }

  /// The header line, without its newline.
  public var jsonText: String {
    var w = JSONWriter(capacity: 128)
    encode(into: &w)
    return w.string
  }

  public func encode(into w: inout JSONWriter) {
    w.beginObject()
    w.key("format"); w.string(Self.format)
    w.key("version"); w.int(version)
    w.key("program"); w.string(program)
    w.key("pid"); w.int(pid)
    w.key("startedAt"); w.string(startedAt)
    w.endObject()
  }
}

extension TraceHeader {
  /// Why a first line is not a header this build can read.
  package enum Problem: Error, Equatable {
    case notATrace(String)
    case unsupportedVersion(Int)
  }

  /// Decodes a header line. `program`, `pid` and `startedAt` are read leniently (a
  /// hand-written trace may leave them out); `format` and `version` must be right.
  package init(line: some Collection<UInt8>) throws(Problem) {
    let json: JSON
    do {
      json = try JSONParser.parse(line)
    } catch {
      throw .notATrace("its first line is not JSON (\(error.message) at byte \(error.offset + 1))")
    }
    guard case .object(let object) = json else {
      throw .notATrace("its first line is a JSON \(json.typeName), not a trace header")
    }
    guard let format = object["format"] else {
      if object["kind"] != nil, object["seq"] != nil {
        throw .notATrace(
          "it starts with an event, not with a {\"format\":\"loupe-trace\",...} header line (use 'loupe record' or LOUPE_RECORD to write traces)"
        )
      }
      throw .notATrace("its first line is JSON without a \"format\" member")
    }
    guard case .string(let name) = format, name == Self.format else {
      throw .notATrace("its format is \(format.jsonText), not \"\(Self.format)\"")
    }
    guard let version = object["version"]?.intValue, version >= 1 else {
      throw .notATrace("its header has no valid \"version\" (found \(object["version"]?.jsonText ?? "nothing"))")
    }
    guard version <= Self.currentVersion else { throw .unsupportedVersion(version) }
    self.init(
      version: version,
      program: object["program"]?.stringValue ?? "",
      pid: object["pid"]?.intValue ?? 0,
      startedAt: object["startedAt"]?.stringValue ?? "")
  }

  /// Whether an incomplete first line could be the start of a header, so a file cut short
  /// inside it is reported as truncated rather than foreign.
  package static func couldBeStart(of partial: some Collection<UInt8>) -> Bool {
    let expected = Array(#"{"format":"loupe-trace""#.utf8)
    var compact: [UInt8] = []
    for byte in partial where !(byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A) {
      compact.append(byte)
      if compact.count == expected.count { break }
    }
    return !compact.isEmpty && expected.starts(with: compact)
  }
}
