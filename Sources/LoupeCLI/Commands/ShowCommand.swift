import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe show FILE [FILTER] [--format text|json|changes]`
struct ShowCommand: Command {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Print the events of a trace file.",
    discussion: """
      Reads the trace as a stream (any size, constant memory). 'text' is a timeline with \
      each event's time, sequence number, kind and store, state changes as -/+ lines and \
      effects with their durations; 'json' prints the matching trace lines unchanged, one \
      event per line (pipe it to jq); 'changes' prints only the _printChanges-style summary \
      lines of state changes.
      """,
    usage: "FILE [FILTER] [--format text|json|changes]",
    arguments: [TraceInput.fileArgument],
    options: FilterOptions.specs + [
      .option("--format", value: "text|json|changes", help: "How to print events (default: text).")
    ],
    examples: [
      ("loupe show bug.loupe --kind 'effect.*'", "Effects only, as a timeline"),
      ("loupe show bug.loupe --store 'AppFeature#1/pages*' --format changes", "What changed in the pages"),
      ("loupe show bug.loupe --format json | jq .kind", "Raw events for scripts"),
    ])

  var path: String
  var filter: EventFilter
  var format: TimelineRenderer.Format

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    filter = FilterOptions.filter(from: arguments)
    format = try FormatOption.parse(arguments.value("--format"))
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    for warning in FilterOptions.warnings(for: filter) { context.warn(warning) }
    let reader = try TraceInput.open(path)
    let progress = TraceInput.progress(for: reader, in: context)
    defer { progress.finish() }
    var pathUsage = PathGlobUsage(filter: filter)
    if format == .json {
      // Lines pass through untouched; events the filter decides by kind, store or action are
      // not decoded at all (a `--path` filter decodes the state changes it keeps).
      while let item = try TraceInput.next(reader, filter: filter, decode: false) {
        if let event = item.event { pathUsage.note(event) }
        let open = item.bytes.withUnsafeBytes { context.stdout.write(line: $0) }
        if !open { return ExitStatus.success }
        progress.update(reader.bytesRead)
      }
    } else if filter.paths == nil {
      if let status = try showTimeline(reader, progress: progress, context: context) { return status }
    } else {
      // Every event is observed (for effect durations and causes); the filter picks those shown.
      var renderer = TimelineRenderer(style: context.style)
      while let item = try TraceInput.next(reader), let event = item.event {
        let shown = filter.matches(event)
        if shown { pathUsage.note(event) }
        let text = renderer.render(event, format: format, shown: shown)
        if !text.isEmpty {
          context.stdout.write(text)
          if context.stdout.isClosed { return ExitStatus.success }
        }
        progress.update(reader.bytesRead)
      }
    }
    context.stdout.flush()
    progress.finish()
    for warning in pathUsage.warnings { context.warn(warning) }
    TraceInput.reportDamage(reader, in: context)
    return ExitStatus.success
  }
}

extension ShowCommand {
  /// The timeline (or the `changes` lines), written from each line's bytes where
  /// ``TimelineRenderer`` can (``TimelineRenderer/renderTimeline(line:shown:to:)``), from the
  /// decoded event elsewhere: the same text either way. Whether a line is shown is decided
  /// from its kind, store and action members (``EventFilter/decide(line:)``) or, failing that,
  /// from the decoded event. `nil` when every event was read, else the exit status (the reader
  /// of standard output went away).
  private func showTimeline(_ reader: TraceReader, progress: Progress, context: CommandContext) throws(CommandFailure) -> Int32? {
    var renderer = TimelineRenderer(style: context.style)
    var out = TextBytes(capacity: 1 << 17)
    // Every event is observed (for effect durations and causes); the filter picks those shown.
    while let item = try TraceInput.next(reader, decode: false, kindText: false) {
      let fast = item.bytes.withUnsafeBufferPointer { line in
        guard let shown = filter.decide(line: line) else { return false }
        if format == .text { return renderer.renderTimeline(line: line, shown: shown, to: &out) }
        // `changes`: the line is checked and noted as the timeline would, then only a state
        // change's summary is written.
        guard renderer.renderTimeline(line: line, shown: false, to: &out) else { return false }
        if shown, let summary = TimelineRenderer.stateChangeSummary(line) {
          out.append(summary)
          out.append(byte: 0x0A)
        }
        return true
      }
      if !fast, let event = reader.decode(item) {
        let text = renderer.render(event, format: format, shown: filter.matches(event))
        out.append(string: text)
      }
      if out.count >= 1 << 16 {
        context.stdout.write(collected: UnsafeRawBufferPointer(out.bytes))
        out.removeAll()
        if context.stdout.isClosed { return ExitStatus.success }
        progress.update(reader.bytesRead)
      }
    }
    context.stdout.write(collected: UnsafeRawBufferPointer(out.bytes))
    return nil
  }
}

/// `--format text|json|changes`.
enum FormatOption {
  static func parse(_ value: String?) throws(UsageError) -> TimelineRenderer.Format {
    guard let value else { return .text }
    guard let format = TimelineRenderer.Format(rawValue: value) else {
      throw UsageError("Invalid value '\(value)' for '--format': expected text, json or changes")
    }
    return format
  }
}
