import LoupeSession
/// A `.loupe` trace file read back, to run the same assertions on as on a live recording:
/// a trace attached to a bug report becomes a test.
///
/// ```swift
/// @Test func bug1234() throws {
///   let trace = try RecordedTrace(path: "Fixtures/bug-1234.loupe")   // next to this file
///   trace.assertNoEffectCancelledByAnotherStore()
///   trace.expect([.action("onAppear", store: "PageFeature#2"), .effectStarted(store: "PageFeature#2")],
///                exhaustivity: .off)
/// }
/// ```
///
/// A trace cut short inside its last line (the program died while writing it) loads with
/// the complete events before it (``truncation`` says so); a damaged line in the middle is
/// skipped and listed in ``malformedLines``.
public final class RecordedTrace: DiagnosticStream, @unchecked Sendable {
  // Unchecked as its superclass: only `let`s of Sendable types.

  /// The path the trace was read from.
  public let path: String
  /// The trace's header line: program, pid, start.
  public let header: TraceHeader
  /// Set when the file ends inside a line.
  public let truncation: TraceReader.Truncation?
  /// Lines that were skipped because they are not events.
  public let malformedLines: [TraceReader.MalformedLine]

  /// Reads the trace at `path`.
  ///
  /// - Parameters:
  ///   - path: An absolute path, or a path relative to the directory of the test file.
  ///   - filePath: The test file (filled in for you).
  /// - Throws: ``TraceError`` when the file cannot be read or is not a trace.
  public init(path: String, relativeTo filePath: StaticString = #filePath) throws(TraceError) {
    let resolved = FixturePath.resolve(path, relativeTo: filePath)
    let reader = try TraceReader(path: resolved)
    let events = try reader.readAll()
    self.path = resolved
    header = reader.header
    truncation = reader.truncation
    malformedLines = reader.malformedLines
    super.init(events: events)
  }

  /// A stream of `events` (built by hand, or read some other way).
  public init(events: [Event], header: TraceHeader = TraceNormalizer.header) {
    path = ""
    self.header = header
    truncation = nil
    malformedLines = []
    super.init(events: events)
  }
}
