import LoupeCore
import LoupeSession

/// Opening a trace for a command, and telling the user about damage found while reading it.
enum TraceInput {
  static let fileArgument = PositionalSpec(name: "FILE", help: "The trace file to read ('-' for standard input).")

  static func open(_ path: String) throws(CommandFailure) -> TraceReader {
    try TraceReader.opening(path)
  }

  /// Reads the next item, turning read errors into a command failure.
  static func next(_ reader: TraceReader, filter: EventFilter = .all, decode: Bool = true, kindText: Bool = true) throws(CommandFailure)
    -> TraceReader.Item?
  {
    try reader.nextItem(filter: filter, decode: decode, kindText: kindText)
  }

  /// Warnings on standard error for a truncated trace and skipped lines.
  static func reportDamage(_ reader: TraceReader, in context: CommandContext) {
    let shown = 10
    for malformed in reader.malformedLines.prefix(shown) {
      context.warn("\(reader.path): \(malformed)")
    }
    if reader.malformedLineCount > shown {
      context.warn("\(reader.path): \(Formatting.plural(reader.malformedLineCount, "malformed line")) skipped in all")
    }
    if let truncation = reader.truncation {
      context.warn("\(reader.path): \(truncation)")
    }
  }

  static func progress(for reader: TraceReader, in context: CommandContext) -> Progress {
    Progress(output: context.stderr, label: "Reading \(reader.path)…", total: reader.fileSize)
  }
}
