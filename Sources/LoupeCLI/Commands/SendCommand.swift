import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession

/// `loupe send --socket PATH|--tcp HOST:PORT STORE ACTION`
struct SendCommand: Command {
  static let configuration = CommandConfiguration(
    name: "send",
    abstract: "Send an action to a store of a running program (it must allow control).",
    discussion: """
      The program must run with LOUPE_CONTROL=1 (or allow control in code): otherwise it \
      refuses, and nothing happens. ACTION is written as loupe shows actions: the \
      'value' of an action.received event, so a recorded action can be sent as it is \
      ('loupe show bug.loupe --kind action.received --format json | jq .value'). A case \
      without payload can be given as its bare name. The store's Action must be Decodable; \
      an action that does not decode is refused with the type and the part that did not.

      The action is reported like any other, with origin 'tool' and the name 'loupe send', \
      to every client: what a tool did is always visible. Prints the seq of its \
      action.received.
      """,
    usage: "(--socket PATH | --tcp HOST:PORT [--token T]) STORE ACTION",
    arguments: [
      PositionalSpec(name: "STORE", help: "The store id, e.g. 'TodosFeature#1' or 'AppFeature#1/pages[id: 2]'."),
      PositionalSpec(name: "ACTION", help: "The action as JSON, a case name, @FILE, or - for standard input."),
    ],
    options: ControlOptions.specs,
    examples: [
      ("loupe send --socket /tmp/app.sock 'CounterFeature#1' incrementTapped", "A case without payload"),
      ("loupe send --socket /tmp/app.sock 'TodosFeature#1' '{\"queryChanged\":\"pay\"}'", "A case with a payload"),
      ("loupe send --tcp 127.0.0.1:7001 'AppFeature#1/pages[id: 2]' startTapped", "A scoped store, over a tunnel"),
    ])

  var target: AttachSession.Target
  var store: String
  var action: String

  init(arguments: ParsedArguments) throws(UsageError) {
    store = arguments.positionals[0]
    action = arguments.positionals[1]
    target = try ControlConnection.target(arguments, environment: ControlOptions.environment)
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let action = try ControlConnection.value(action, what: "action")
    let result = try await ControlConnection.perform(SendRequest(store: store, action: action), on: target, as: "loupe send")
    context.stdout.line(result.seq.map { "sent to \(store) as #\($0)" } ?? "sent to \(store)")
    return 0
  }
}

/// `loupe set-state --socket PATH|--tcp HOST:PORT STORE STATE`
struct SetStateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "set-state",
    abstract: "Replace a root store's state in a running program (it must allow control).",
    discussion: """
      The program must run with LOUPE_CONTROL=1 (or allow control in code): otherwise it \
      refuses, and nothing happens. STATE is written as loupe shows states: what 'loupe \
      state FILE --store S --at SEQ --format json' prints, so a program can be put in the \
      state a recording had at any moment. The store's State must be Decodable. Redacted \
      paths keep the values they have in the program, whatever STATE holds there.

      The store reports the change like one an action made: a mark 'setState STORE by \
      loupe set-state', then its state.changed events with origin 'tool'; scoped stores \
      and derived values follow. Prints the mark's seq.
      """,
    usage: "(--socket PATH | --tcp HOST:PORT [--token T]) STORE STATE",
    arguments: [
      PositionalSpec(name: "STORE", help: "A root store id, e.g. 'TodosFeature#1'."),
      PositionalSpec(name: "STATE", help: "The state as JSON, @FILE, or - for standard input."),
    ],
    options: ControlOptions.specs,
    examples: [
      (
        "loupe state bug.loupe --store 'TodosFeature#1' --at 118 --format json > s.json\n  loupe set-state --socket /tmp/app.sock 'TodosFeature#1' @s.json",
        "Put the program in the state of #118 of a recording"
      )
    ])

  var target: AttachSession.Target
  var store: String
  var state: String

  init(arguments: ParsedArguments) throws(UsageError) {
    store = arguments.positionals[0]
    state = arguments.positionals[1]
    target = try ControlConnection.target(arguments, environment: ControlOptions.environment)
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let state = try ControlConnection.value(state, what: "state")
    let result = try await ControlConnection.perform(SetStateRequest(store: store, state: state), on: target, as: "loupe set-state")
    context.stdout.line(result.seq.map { "state of \(store) set at #\($0)" } ?? "state of \(store) set")
    return 0
  }
}

/// The connection options of the control commands.
enum ControlOptions {
  static let specs: [OptionSpec] = [
    .option("--socket", value: "PATH", help: "The program listening with LOUPE=unix:PATH."),
    .option("--tcp", value: "HOST:PORT", help: "The program listening with LOUPE=tcp:HOST:PORT (through iproxy or ssh -L for a device)."),
    .option("--token", value: "T", help: "The program's token for --tcp (default: LOUPE_TOKEN)."),
  ]

  static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
