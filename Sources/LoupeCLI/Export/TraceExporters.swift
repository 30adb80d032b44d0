import LoupeCore

/// The exporters `loupe export` runs over one trace, fed its events in one pass, and where
/// their output goes as it grows: OTLP requests to a file and/or an endpoint, Perfetto bytes
/// to a file, Chrome JSON to a file.
struct TraceExporters {
  private var otlp: OTLPExporter?
  private var perfetto: PerfettoExporter?
  private var chrome: ChromeTraceFile?
  /// Perfetto bytes are written once this many are encoded.
  static let perfettoChunk = 1 << 20

  init(header: TraceHeader, identity: ExportIdentity, otlp: Bool, perfetto: Bool, chrome: (file: ExportFile, source: String)?) {
    if otlp { self.otlp = OTLPExporter(header: header, identity: identity) }
    if perfetto { self.perfetto = PerfettoExporter(header: header, identity: identity) }
    if let chrome { self.chrome = ChromeTraceFile(header: header, output: chrome.file.output, source: chrome.source) }
  }

  mutating func add(_ event: Event) {
    otlp?.add(event)
    perfetto?.add(event)
    chrome?.add(event)
  }

  mutating func finish() {
    otlp?.finish()
    perfetto?.finish()
    chrome?.finish()
  }

  /// Writes and sends what is complete: OTLP requests (a line each in `otlpFile`, a POST each
  /// through `sender`), Perfetto bytes once there are enough of them (all of them after
  /// ``finish()``).
  mutating func drain(otlp otlpFile: ExportFile?, sender: inout OTLPSender?, perfetto perfettoFile: ExportFile?) async throws(OTLPSender.Failure) {
    if otlp != nil {
      for request in otlp!.takeRequests() {
        if let otlpFile {
          otlpFile.output.write(bytes: request.body)
          otlpFile.output.write(bytes: CollectionOfOne(UInt8(ascii: "\n")))
        }
        try await sender?.send(request)
      }
    }
    if let perfettoFile, perfetto != nil, perfetto!.output.bytes.count >= Self.perfettoChunk || perfetto!.isFinished {
      perfettoFile.output.write(bytes: perfetto!.takeBytes())
    }
  }
}

/// A Trace Event Format file: `{"traceEvents":[…],"displayTimeUnit":"ms","otherData":{…}}`.
final class ChromeTraceFile {
  private let output: Output
  private let header: TraceHeader
  private let source: String
  private var exporter: ChromeTraceExporter!
  private var first = true
  private var line = JSONWriter(capacity: 512)

  init(header: TraceHeader, output: Output, source: String) {
    self.output = output
    self.header = header
    self.source = source
    output.write(#"{"traceEvents":["# + "\n")
    exporter = ChromeTraceExporter(pid: header.pid, program: header.program) { [unowned self] event in self.write(event) }
  }

  private func write(_ event: JSON) {
    line.reset()
    line.value(event)
    if !first { output.write(bytes: [UInt8(ascii: ","), 0x0A]) }
    first = false
    output.write(bytes: line.bytes)
  }

  func add(_ event: Event) { exporter.add(event) }

  func finish() {
    exporter.finish()
    var other = JSONWriter()
    other.value(["program": .string(header.program), "pid": .int(header.pid), "startedAt": .string(header.startedAt), "source": .string(source)])
    output.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":" + other.string + "}\n")
  }
}
