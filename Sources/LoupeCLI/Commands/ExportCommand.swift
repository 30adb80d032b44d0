import Foundation
import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe export FILE --chrome-trace OUT`
struct ExportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Convert a trace for Perfetto or chrome://tracing.",
    discussion: """
      Writes the Trace Event Format: each store is a named track; actions are slices as \
      long as their reducer time; effects are async spans from start to finish or \
      cancellation; state changes, derived recomputations, identity changes and marks are \
      instants. Open the file at https://ui.perfetto.dev or chrome://tracing.
      """,
    usage: "FILE --chrome-trace OUT",
    arguments: [TraceInput.fileArgument],
    options: [.option("--chrome-trace", value: "OUT", help: "Write Trace Event Format JSON to OUT ('-' for standard output).")],
    examples: [("loupe export bug.loupe --chrome-trace bug.json", "Then open bug.json in https://ui.perfetto.dev")])

  var path: String
  var output: String

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    guard let output = arguments.value("--chrome-trace") else {
      throw UsageError("Missing '--chrome-trace OUT' (the export format and where to write it)")
    }
    self.output = output
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let reader = try TraceInput.open(path)
    let sink: Output
    var fd: Int32 = -1
    if output == "-" {
      sink = context.stdout
    } else {
      fd = LibC.createForWriting(output)
      guard fd >= 0 else { throw CommandFailure("Cannot open '\(output)' for writing: \(LibC.message(LibC.errno)).") }
      sink = Output(file: fd)
    }
    defer { if fd >= 0 { LibC.close(fd) } }
    let progress = TraceInput.progress(for: reader, in: context)
    var first = true
    var line = JSONWriter(capacity: 512)
    sink.write(#"{"traceEvents":["# + "\n")
    var exporter = ChromeTraceExporter(pid: reader.header.pid, program: reader.header.program) { event in
      line.reset()
      line.value(event)
      if !first { sink.write(bytes: [UInt8(ascii: ","), 0x0A]) }
      first = false
      sink.write(bytes: line.bytes)
    }
    while let item = try TraceInput.next(reader), let event = item.event {
      exporter.add(event)
      progress.update(reader.bytesRead)
    }
    exporter.finish()
    progress.finish()
    var other = JSONWriter()
    other.value(["program": .string(reader.header.program), "pid": .int(reader.header.pid), "startedAt": .string(reader.header.startedAt), "source": .string(reader.path)])
    sink.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":" + other.string + "}\n")
    sink.flush()
    if output != "-", let code = sink.errorCode {
      throw CommandFailure("Cannot write to '\(output)': \(LibC.message(code)).")
    }
    TraceInput.reportDamage(reader, in: context)
    return ExitStatus.success
  }
}
