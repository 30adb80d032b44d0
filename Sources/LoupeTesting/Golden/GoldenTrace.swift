import Foundation
import LoupeSession

extension DiagnosticStream {
  /// The environment variable that makes every golden-trace assertion record its fixture
  /// anew: `LOUPE_RECORD_GOLDENS=1 swift test`.
  public static let recordGoldensVariable = "LOUPE_RECORD_GOLDENS"

  /// Asserts that the stream is the one in the `.loupe` fixture at `path`, after both are
  /// normalized (see ``TraceNormalizer``: times, durations, pid, program, start, `seq`s,
  /// effect ids and identities).
  ///
  /// ```swift
  /// recorder.assertMatchesGolden("Goldens/timer.loupe")   // next to this test file
  /// ```
  ///
  /// When the fixture does not exist yet, or when recording (`record: true`, or
  /// `LOUPE_RECORD_GOLDENS=1` in the environment), the stream is written to it — a trace
  /// file like any other, that `loupe show` reads — and the assertion fails, so a recording
  /// is never mistaken for a pass: check the fixture in and run the test again.
  ///
  /// Rendering metadata that the fixture has in none of its events (`shape`, `oldShape`,
  /// `newShape`: it was recorded by a Loupe that did not write them) is left out of the
  /// comparison, as `source` always is; see ``AdditiveMetadata``.
  ///
  /// On a mismatch the failure shows the fixture's lines that are missing (`−`) and the
  /// stream's lines that are new (`+`).
  ///
  /// - Parameters:
  ///   - path: An absolute path, or a path relative to the directory of the test file.
  ///   - kinds: Only events of these kinds (patterns) are compared and recorded.
  ///   - record: Write the fixture anew instead of comparing.
  public func assertMatchesGolden(
    _ path: String, kinds: [String]? = nil, record: Bool = false,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let file = FixturePath.resolve(path, relativeTo: filePath)
    let filter = EventFilter(kinds: kinds?.map(Glob.init))
    let actual = TraceNormalizer.normalize(events.filter(filter.matches))
    let recording = record || Self.recordGoldensFromEnvironment
    guard !recording, FileManager.default.fileExists(atPath: file) else {
      let why = recording
        ? "recording is on (\(record ? "record: true" : "\(Self.recordGoldensVariable) is set")). Check it, turn recording off"
        : "it did not exist. Check it"
      do {
        try Self.write(actual, to: file)
        FailureReporter.fail(
          "Recorded the golden trace \(path) (\(plural(actual.count, "event", "events"))) because \(why) and run the test again.",
          at: site)
      } catch {
        FailureReporter.fail("Cannot record the golden trace \(path): \(error)", at: site)
      }
      return
    }
    let golden: [Event]
    do {
      let reader = try TraceReader(path: file)
      golden = TraceNormalizer.normalize(try reader.readAll(filter: filter))
      if let truncation = reader.truncation {
        FailureReporter.fail("The golden trace \(path) is damaged: \(truncation). Record it anew.", at: site)
        return
      }
    } catch {
      FailureReporter.fail("Cannot compare with the golden trace: \(error)", at: site)
      return
    }
    // Rendering metadata the golden was recorded without (it is older) is not compared.
    let compared = AdditiveMetadata.removing(AdditiveMetadata.absent(from: golden), from: actual)
    let expectedLines = golden.map(\.jsonText)
    let actualLines = compared.map(\.jsonText)
    guard expectedLines != actualLines else { return }
    // Events are lined up on what they say, not on their numbers: one event more near the
    // start renumbers all the others, which are still the same events.
    let expectedKeys = golden.map(Self.alignmentKey)
    let actualKeys = compared.map(Self.alignmentKey)
    let alignment = Alignment(expected: golden.count, actual: compared.count) { expectedKeys[$0] == actualKeys[$1] }
    var diff = DiffLines()
    for step in alignment.steps {
      switch step {
      case .matched(_, let j): diff.same(actualLines[j])
      case .missing(let i): diff.expected(expectedLines[i])
      case .unexpected(let j): diff.actual(actualLines[j])
      }
    }
    var problems: [String] = []
    if !alignment.missing.isEmpty { problems.append(plural(alignment.missing.count, "golden event is missing", "golden events are missing")) }
    if !alignment.unexpected.isEmpty { problems.append(plural(alignment.unexpected.count, "event is new", "events are new")) }
    let header = "The stream does not match the golden trace \(path): " + problems.joined(separator: ", ") + "."
    let footer = "If the change is intended, record the trace anew: \(Self.recordGoldensVariable)=1 swift test, or record: true."
    FailureReporter.fail(diff.message(header, footer: footer), at: site)
  }

  /// The event without its `seq`, with the `seq`s it refers to made relative to its own: two
  /// streams whose keys are equal in order are equal.
  static func alignmentKey(_ event: Event) -> String {
    let seq = event.seq
    var key = event.mappingReferencedSeq { $0 == 0 ? 0 : seq - $0 }
    key.seq = 0
    return key.jsonText
  }

  static var recordGoldensFromEnvironment: Bool {
    recordsGoldens(environment: ProcessInfo.processInfo.environment)
  }

  /// Whether `environment` asks to record goldens: `LOUPE_RECORD_GOLDENS` set to anything
  /// but empty, `0`, `false` or `no`.
  static func recordsGoldens(environment: [String: String]) -> Bool {
    guard let value = environment[recordGoldensVariable]?.lowercased() else { return false }
    return !["", "0", "false", "no"].contains(value)
  }

  private static func write(_ events: [Event], to file: String) throws {
    let directory = URL(fileURLWithPath: file).deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let writer = try TraceWriter(path: file, header: TraceNormalizer.header)
    try writer.append(events)
    try writer.close()
  }
}
