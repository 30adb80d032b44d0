import LoupeCore
import LoupeSession
import LoupeClient

/// `loupe state FILE --store GLOB [--at SEQ] [--path PATH] [--format text|json]`
struct StateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "state",
    abstract: "Print a store's whole state at any moment of a trace.",
    discussion: """
      Rebuilds the state of the stores matching --store right after event --at (default: the \
      trace's last event) from the trace's state snapshots and changes (CONTRACT §10): the \
      root store's last state.snapshot at or before it, with every later change applied. \
      'text' prints it as an indented tree in the value text of the diffs, each store under \
      a header; 'json' prints exactly the rendered JSON (one store only). A state rebuilt \
      from a snapshot or change that a size cap cut short, or from a trace without \
      snapshots, is marked approximate.

      For one store named without wildcards, finds --at in the file by seeking (lines are in \
      seq order) and reads only from the root store's last snapshot before it; otherwise \
      reads the trace once up to --at without decoding its events. Either way it then \
      decodes only the snapshot and the changes it applies.
      """,
    usage: "FILE --store GLOB [--at SEQ] [--path PATH] [--format text|json]",
    arguments: [PositionalSpec(name: "FILE", help: "The trace file to read (a file: it is read back by offset).")],
    options: [
      .option("--store", value: "GLOB", help: "The store, e.g. 'AppFeature#1/pages[id: 2]' (a glob: 'App*' prints each match)."),
      .option("--at", value: "SEQ", help: "The state right after this event (default: the last event)."),
      .option("--path", value: "PATH", help: "Only the value at this path in the state, e.g. 'pages[id: 2].title'."),
      .option("--format", value: "text|json", help: "An indented tree (default) or the rendered JSON."),
    ],
    examples: [
      ("loupe state bug.loupe --store 'TodosFeature#1' --at 118", "The whole state right after #118"),
      ("loupe state bug.loupe --store 'AppFeature#1/pages*' --path count", "Each page's count at the end"),
      ("loupe state bug.loupe --store 'TodosFeature#1' --format json | jq .query", "For scripts"),
    ])

  enum Format: String { case text, json }

  var path: String
  var store: Glob
  var at: Int?
  var statePath: StatePath
  var format: Format

  init(arguments: ParsedArguments) throws(UsageError) {
    path = arguments.positionals[0]
    guard let store = arguments.value("--store"), !store.isEmpty else {
      throw UsageError("Missing expected option '--store GLOB' (which store's state; 'loupe show FILE --kind store.created' lists them)")
    }
    self.store = Glob(store)
    if let text = arguments.value("--at") {
      guard let seq = Int(text), seq >= 0 else {
        throw UsageError("Invalid value '\(text)' for '--at': expected an event's sequence number (0 or more)")
      }
      at = seq
    }
    do {
      statePath = try StatePath(parsing: arguments.value("--path") ?? "")
    } catch {
      throw UsageError(error.message)
    }
    let formatText = arguments.value("--format") ?? "text"
    guard let format = Format(rawValue: formatText) else {
      throw UsageError("Invalid value '\(formatText)' for '--format': expected text or json")
    }
    self.format = format
  }

  func validate() throws(UsageError) {
    if path == "-" { throw UsageError("state reads the trace back by offset: give it as a file, not standard input") }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let states: TraceStateIndex
    do throws(TraceError) {
      if let sought = try soughtIndex() {
        states = sought
      } else {
        states = try TraceStateIndex(tracePath: path, through: at)
      }
    } catch {
      throw CommandFailure(error.description)
    }
    TraceInput.reportDamage(states.reader, in: context)
    // One moment is asked for: checkpoints on the way to it would never be used.
    states.checkpointBudget = 0
    let query = StateQuery(states: states)
    let seq: Int
    let stores: [String]
    do throws(StateQuery.Failure) {
      seq = try query.seq(at)
      stores = try query.stores(matching: store, atSeq: seq)
    } catch {
      throw CommandFailure(error.message)
    }
    // One store's state, once: changes that land beside it need not be applied.
    states.focusesOnEachStore = stores.count == 1
    if format == .json && stores.count > 1 {
      throw CommandFailure(
        "'\(store.pattern)' matches \(stores.count) stores alive right after #\(seq) (\(StateQuery.list(stores))): "
          + "--format json prints one state, so name one store")
    }
    var failures = 0
    for (offset, id) in stores.enumerated() {
      let state: RebuiltState
      do throws(StateQuery.Failure) {
        state = try query.state(of: id, atSeq: seq, path: statePath)
      } catch {
        // One store of several: say so and go on with the others.
        if stores.count == 1 { throw CommandFailure(error.message) }
        context.stderr.line("Error: \(error.message)")
        failures += 1
        continue
      }
      switch format {
      case .json:
        context.stdout.line(state.value.jsonText)
        if state.approximate { context.warn("the state is approximate: \(query.approximation(of: id, atSeq: seq))") }
      case .text:
        if offset > 0 { context.stdout.line() }
        let subject = statePath.isRoot ? id : "\(id) \(statePath)"
        context.stdout.line(context.style.bold("\(subject) right after #\(seq):"))
        if state.approximate {
          context.stdout.line(context.style.apply(.yellow, "(approximate: \(query.approximation(of: id, atSeq: seq)))"))
        }
        let shape = states.shape(of: id, atSeq: seq, path: statePath)
        context.stdout.line(ValueTree.render(state.value, shape: shape, width: Self.width, expandingRoot: statePath.isRoot, cuttingLongValues: false))
      }
    }
    context.stdout.flush()
    return failures == 0 ? ExitStatus.success : ExitStatus.failure
  }

  /// For one store named without wildcards, an index of the part of the trace its state needs
  /// (``TraceStateIndex/seeking(tracePath:store:through:)``), when it answers; `nil` to read
  /// the trace through, which also gives the errors their full detail (which stores there are,
  /// when they lived).
  private func soughtIndex() throws(TraceError) -> TraceStateIndex? {
    guard let id = store.literalText, let states = try TraceStateIndex.seeking(tracePath: path, store: id, through: at) else { return nil }
    let query = StateQuery(states: states)
    do throws(StateQuery.Failure) {
      let seq = try query.seq(at)
      guard try query.stores(matching: store, atSeq: seq) == [id] else { return nil }
      _ = try query.state(of: id, atSeq: seq, path: statePath)
      return states
    } catch {
      return nil
    }
  }

  /// The tree's width: the diffs' width.
  static let width = 80
}
