import Foundation
import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe export TRACE... --otlp OUT | --otlp-endpoint URL | --perfetto OUT | --chrome-trace OUT`
struct ExportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Convert traces for OpenTelemetry, Perfetto or chrome://tracing.",
    discussion: """
      OpenTelemetry (--otlp, --otlp-endpoint): each trace is one OTLP trace with ids derived \
      from the file: a span per store lifetime, per action (under its store) and per effect \
      (under the action that started it); a cancellation by an action is a span link; state \
      changes, derived recomputations and identity changes are span events. --otlp writes \
      OTLP/JSON, one ExportTraceServiceRequest per line; --otlp-endpoint POSTs the same \
      requests to URL/v1/traces (OTLP/HTTP), retrying on 429, 502, 503, 504 and lost \
      connections, and exits 3 saying how many spans arrived if the endpoint stays \
      unreachable. Perfetto (--perfetto): native protobuf, a track per store with its \
      effects on lanes beneath and arrows from each cause to what it caused; open it at \
      https://ui.perfetto.dev. --chrome-trace writes the legacy Trace Event Format JSON of \
      one trace. Several outputs may be asked for at once.
      """,
    usage: "TRACE... [--otlp OUT] [--otlp-endpoint URL] [--perfetto OUT] [--chrome-trace OUT]",
    arguments: [PositionalSpec(name: "TRACE...", help: "The trace files to read ('-' for standard input).", isRepeated: true)],
    options: [
      .option("--otlp", value: "OUT", help: "Write OTLP/JSON lines to OUT ('-' for standard output)."),
      .option("--otlp-endpoint", value: "URL", help: "POST OTLP/JSON to URL/v1/traces (an OpenTelemetry Collector's OTLP/HTTP receiver)."),
      .option("--perfetto", value: "OUT", help: "Write a native Perfetto trace (.pftrace) to OUT."),
      .option("--chrome-trace", value: "OUT", help: "Write Trace Event Format JSON of one trace to OUT ('-' for standard output)."),
    ],
    examples: [
      ("loupe export run.loupe --otlp-endpoint http://localhost:4318", "Send a run to an OpenTelemetry Collector"),
      ("loupe export run.loupe --perfetto run.pftrace", "Then open run.pftrace in https://ui.perfetto.dev"),
      ("loupe export ci/*.loupe --otlp runs.jsonl", "Many runs, one OTLP/JSON request per line"),
    ])

  var paths: [String]
  var otlp: String?
  var endpoint: URL?
  var perfetto: String?
  var chromeTrace: String?

  init(arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals
    otlp = arguments.value("--otlp")
    perfetto = arguments.value("--perfetto")
    chromeTrace = arguments.value("--chrome-trace")
    if let text = arguments.value("--otlp-endpoint") {
      guard let url = URLSessionOTLPTransport.tracesURL(text) else {
        throw UsageError("'--otlp-endpoint' needs an http:// or https:// URL, not '\(text)'")
      }
      endpoint = url
    }
    guard otlp != nil || endpoint != nil || perfetto != nil || chromeTrace != nil else {
      throw UsageError("Missing an output: '--otlp OUT', '--otlp-endpoint URL', '--perfetto OUT' or '--chrome-trace OUT'")
    }
    if chromeTrace != nil, paths.count > 1 {
      throw UsageError("'--chrome-trace' converts one trace; use '--perfetto' or '--otlp' for several")
    }
    if [otlp, perfetto, chromeTrace].filter({ $0 == "-" }).count > 1 {
      throw UsageError("Only one output can go to standard output ('-')")
    }
    if perfetto == "-" { throw UsageError("'--perfetto' writes binary: give it a file, not '-'") }
    if paths.filter({ $0 == "-" }).count > 1 { throw UsageError("Standard input ('-') can be read once") }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    var files = ExportFiles()
    defer { files.closeAll() }
    var otlpFile: ExportFile?
    var perfettoFile: ExportFile?
    var chromeFile: ExportFile?
    if let otlp { otlpFile = try files.create(otlp, in: context) }
    if let perfetto { perfettoFile = try files.create(perfetto, in: context) }
    if let chromeTrace { chromeFile = try files.create(chromeTrace, in: context) }
    var sender = endpoint.map { url in
      OTLPSender(transport: URLSessionOTLPTransport(url: url), policy: Self.retryPolicy(context.environment))
    }
    var headersSeen: [TraceHeader: Int] = [:]
    for path in paths {
      let reader = try TraceInput.open(path)
      let progress = TraceInput.progress(for: reader, in: context)
      let occurrence = headersSeen[reader.header, default: 0]
      headersSeen[reader.header] = occurrence + 1
      var exporters = TraceExporters(
        header: reader.header, identity: ExportIdentity(header: reader.header, occurrence: occurrence), otlp: otlpFile != nil || sender != nil, perfetto: perfettoFile != nil,
        chrome: chromeFile.map { (file: $0, source: reader.path) })
      do {
        while let item = try TraceInput.next(reader), let event = item.event {
          exporters.add(event)
          try await exporters.drain(otlp: otlpFile, sender: &sender, perfetto: perfettoFile)
          progress.update(reader.bytesRead)
        }
        exporters.finish()
        try await exporters.drain(otlp: otlpFile, sender: &sender, perfetto: perfettoFile)
      } catch let failure as OTLPSender.Failure {
        progress.finish()
        let delivered = sender?.deliveredSpans ?? 0
        throw CommandFailure(
          "Cannot deliver spans to \(endpoint!.absoluteString): \(failure.reason) (\(Formatting.plural(failure.attempts, "attempt"))). "
            + "\(Formatting.plural(delivered, "span")) delivered before that; the rest were not sent (the trace files are unchanged).")
      } catch let failure as CommandFailure {
        throw failure
      } catch {
        throw CommandFailure("\(error)")
      }
      progress.finish()
      TraceInput.reportDamage(reader, in: context)
    }
    try files.finish()
    context.stdout.flush()
    if let sender, let endpoint {
      context.note("\(Formatting.plural(sender.deliveredSpans, "span")) delivered to \(endpoint.absoluteString) in \(Formatting.plural(sender.deliveredRequests, "request")).")
      if sender.rejectedSpans > 0 {
        context.warn("the endpoint rejected \(Formatting.plural(sender.rejectedSpans, "span"))\(sender.rejection.map { ": \($0)" } ?? "").")
      }
    }
    return ExitStatus.success
  }

  /// The default policy; `LOUPE_OTLP_BACKOFF_MS` sets the first wait (tests make it short).
  static func retryPolicy(_ environment: [String: String]) -> OTLPRetryPolicy {
    var policy = OTLPRetryPolicy()
    if let text = environment["LOUPE_OTLP_BACKOFF_MS"], let milliseconds = Int(text), milliseconds >= 0 {
      policy.initialBackoff = .milliseconds(milliseconds)
    }
    return policy
  }
}
