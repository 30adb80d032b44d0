import LoupeCore

/// Gathers finished spans into `ExportTraceServiceRequest` JSON bodies of bounded size: one
/// resource (the recorded program) and one scope (`loupe`) per request.
///
/// A request is complete when it holds `maximumSpans` spans, or when the next span would take
/// it past `maximumBytes`, or at ``finish()``. Only the request being filled is in memory.
struct OTLPRequestBatcher {
  /// A finished request body (no line break) and how many spans it carries.
  typealias Request = (body: [UInt8], spans: Int)

  let maximumSpans: Int
  let maximumBytes: Int
  private let traceID: String
  private var prefix: [UInt8] = []
  private let suffix = Array("]}]}]}".utf8)
  private var spans = JSONWriter(capacity: 1 << 16)
  private var span = JSONWriter(capacity: 4096)
  private var spanCount = 0
  /// Complete requests not yet taken by ``takeRequests()``.
  private(set) var requests: [Request] = []
  /// Spans in all requests made so far.
  private(set) var totalSpans = 0

  /// - Parameters:
  ///   - program: the resource's `service.name` (`loupe trace` when the trace names none).
  ///   - pid: the resource's `process.pid`.
  init(identity: ExportIdentity, program: String, pid: Int, maximumSpans: Int = 1024, maximumBytes: Int = 4 << 20) {
    self.maximumSpans = maximumSpans
    self.maximumBytes = maximumBytes
    traceID = identity.traceID
    var w = JSONWriter()
    w.beginObject()
    w.key("resourceSpans")
    w.beginArray()
    w.beginObject()
    w.key("resource")
    w.beginObject()
    OTLPSpan.write([("service.name", .string(program.isEmpty ? "loupe trace" : program)), ("process.pid", .int(pid))], to: &w)
    w.endObject()
    w.key("scopeSpans")
    w.beginArray()
    w.beginObject()
    w.key("scope")
    w.beginObject()
    w.key("name")
    w.string("loupe")
    w.key("version")
    w.string(LoupeCLI.version)
    w.endObject()
    w.key("spans")
    w.beginArray()
    prefix = w.bytes
  }

  mutating func add(_ finished: OTLPSpan) {
    span.reset()
    finished.write(to: &span, traceID: traceID)
    if spanCount > 0, prefix.count + spans.count + 1 + span.count + suffix.count > maximumBytes {
      flush()
    }
    span.withBytes { spans.raw($0) }  // with the comma before all but the first
    spanCount += 1
    if spanCount >= maximumSpans { flush() }
  }

  /// Completes the request being filled, if it holds any span.
  mutating func flush() {
    guard spanCount > 0 else { return }
    var body = prefix
    body.reserveCapacity(prefix.count + spans.count + suffix.count)
    spans.withBytes { body.append(contentsOf: $0) }
    body.append(contentsOf: suffix)
    requests.append((body, spanCount))
    totalSpans += spanCount
    spans.reset()
    spanCount = 0
  }

  /// The complete requests, in order; they are forgotten here.
  mutating func takeRequests() -> [Request] {
    defer { requests.removeAll(keepingCapacity: true) }
    return requests
  }
}
