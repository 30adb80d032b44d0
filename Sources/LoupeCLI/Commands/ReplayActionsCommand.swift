import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// `loupe replay-actions TRACE (--socket PATH|--tcp HOST:PORT) [--store GLOB] [--until SEQ]`
struct ReplayActionsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "replay-actions",
    abstract: "Send a recording's user actions to a running program and compare its state.",
    discussion: """
      Turns a bug report into a check on your build: sends the actions the recorded program \
      sent itself (origin send; not those its effects, parent stores or tools sent), in order, \
      to a program that allows control (LOUPE_CONTROL=1), and after each compares the \
      program's state with the recording's, both rebuilt the same way (CONTRACT §10): the \
      root store's state once the action's processing is over (its changes and those of \
      the scoped stores it reached), before anything effects do later, which depends on \
      time. Stops at the first difference, with the path and both values.

      The replay is paced by the recording, not by the clock: before each action it waits \
      (up to --wait) until the program's effects have sent as many actions and ended as \
      many times as the recording's had by then, so a search that had answered before the \
      next keystroke has answered in the program too. When the program's effects have done \
      exactly as much, the state they left is compared as well.

      The program must start where the recording started: the same initial state (checked \
      before the first action), and nothing else sending actions meanwhile. Exits with 0 \
      when every state matched, 1 at a difference, 3 when the program refused or went away.
      """,
    usage: "TRACE (--socket PATH | --tcp HOST:PORT [--token T]) [--store GLOB] [--until SEQ] [--wait SECONDS]",
    arguments: [PositionalSpec(name: "TRACE", help: "The recording whose actions are sent.")],
    options: ControlOptions.specs + [
      .option("--store", value: "GLOB", help: "Only actions sent to these stores (e.g. 'TodosFeature#1')."),
      .option("--until", value: "SEQ", help: "Only actions up to this seq of the recording."),
      .option("--wait", value: "SECONDS", help: "How long to wait for the program's effects to catch up with the recording's before each action (default 10)."),
    ],
    examples: [
      ("loupe replay-actions bug.loupe --socket /tmp/app.sock", "Does my build still do what the bug report shows?"),
      ("loupe replay-actions bug.loupe --socket /tmp/app.sock --until 118", "Replay up to the moment of the bug"),
    ])

  var trace: String
  var target: AttachSession.Target
  var stores: Glob?
  var until: Int?
  /// How long to wait for the program's effects to catch up with the recording's.
  var wait: Duration = .seconds(10)

  init(arguments: ParsedArguments) throws(UsageError) {
    trace = arguments.positionals[0]
    target = try ControlConnection.target(arguments, environment: ControlOptions.environment)
    stores = arguments.value("--store").map(Glob.init)
    if let text = arguments.value("--until") {
      guard let seq = Int(text), seq >= 0 else {
        throw UsageError("Invalid value '\(text)' for '--until': expected an event's sequence number (0 or more)")
      }
      until = seq
    }
    if let text = arguments.value("--wait") {
      guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
        throw UsageError("Invalid value '\(text)' for '--wait': expected seconds (up to 3600), e.g. 10 or 0.5")
      }
      wait = .milliseconds(Int(seconds * 1000))
    }
  }

  func validate() throws(UsageError) {
    if trace == "-" { throw UsageError("replay-actions reads the trace back by offset: give it as a file, not standard input") }
  }

  func run(in context: CommandContext) async throws(CommandFailure) -> Int32 {
    let model: SessionModel
    do {
      model = try SessionModel(tracePath: trace)
    } catch {
      throw CommandFailure(error.description)
    }
    let replay = ActionReplay(model: model, stores: stores, until: until)
    guard !replay.steps.isEmpty else {
      context.stdout.line("No actions to replay: \(trace) has no action.received with origin send\(stores.map { " to \($0)" } ?? "")\(until.map { " up to #\($0)" } ?? "").")
      return 0
    }
    let connection = try await ControlConnection.open(target, clientName: "loupe replay-actions")
    defer { connection.client.close() }
    let live = LiveSession(client: connection.client)
    let history: Int
    do {
      history = try await connection.client.subscribe(SubscribeRequest(history: true))
    } catch {
      throw CommandFailure("'\(connection.name)' refused to subscribe: \(ControlConnection.describe(error))")
    }
    guard try await live.wait(atMost: .seconds(30), until: { live.model.count >= history }) else {
      throw CommandFailure("'\(connection.name)' did not send the history it announced (\(history) events)")
    }
    live.countEffectWork()
    context.stdout.line("Replaying \(Formatting.plural(replay.steps.count, "action")) of \(trace) to \(connection.name)")
    let style = context.style

    for (root, recorded) in replay.initialStates.sorted(by: { $0.key < $1.key }) {
      let now = live.model.count > 0 ? live.model.state(of: root, at: live.model.count - 1) : nil
      guard let now else {
        throw CommandFailure("the program has no live store '\(root)' (the recording's actions go to it): start it as the recording started")
      }
      if let difference = ActionReplay.firstDifference(expected: recorded.value, actual: now.value) {
        context.stdout.line(style.apply(.red, "The program's state differs from the recording's before the first action:"))
        context.stdout.line("  \(root) \(ActionReplay.describe(difference))")
        context.stdout.line("Start the program as the recording started (or set its state: loupe set-state … '\(root)' with 'loupe state \(trace) --store \(root) --at \(replay.steps[0].seq - 1) --format json').")
        await connection.close()
        return 1
      }
    }

    for (number, step) in replay.steps.enumerated() {
      // Paced by the recording: what its effects had done before this action, the program's
      // must have done too (a search answered, a timer fired).
      if number > 0 {
        let wanted = replay.effectWork(before: step.seq)
        let done = try await live.wait(atMost: wait) { live.effectWork.covers(wanted) }
        if !done {
          let now = live.effectWork
          context.stdout.line(
            style.apply(.red, "The program's effects did not do what the recording's did before #\(step.seq) \(step.action)")
              + " (action \(number + 1) of \(replay.steps.count)): within \(wait) the recording's effects had sent \(wanted.actions) and ended \(wanted.ends) since the first action, the program's \(now.actions) and \(now.ends).")
          await connection.close()
          return 1
        }
        // When the program's effects did exactly what the recording's did, the state they
        // left must be the recording's too (with more, a timer ticked again: not comparable).
        if live.effectWork == wanted, let before = step.before,
          let now = live.model.state(of: step.root, at: live.model.count - 1),
          let difference = ActionReplay.firstDifference(expected: before.value, actual: now.value)
        {
          context.stdout.line(
            style.apply(.red, "The program's state differs from the recording's before #\(step.seq) \(step.action)")
              + " (action \(number + 1) of \(replay.steps.count)), after what its effects did since the previous action:")
          context.stdout.line("  \(step.root) \(ActionReplay.describe(difference))")
          await connection.close()
          return 1
        }
      }
      let result = try await connection.send(SendRequest(store: step.store, action: step.value))
      guard let seq = result.seq, let through = result.through else {
        throw CommandFailure("the program took #\(step.seq) \(step.action) but reported no event for it")
      }
      guard try await live.wait(atMost: .seconds(30), until: { live.lastSeq >= through }) else {
        throw CommandFailure("the program's events for #\(seq) did not arrive")
      }
      guard let position = live.model.index(ofSeq: seq),
        let now = live.model.state(of: step.root, at: ActionReplay.settledPosition(after: position, in: live.model))
      else {
        throw CommandFailure("the program's events for #\(seq) did not arrive whole (a dropped event?): cannot compare its state")
      }
      let head = "  #\(step.seq) → #\(seq)  \(step.action)"
      guard let expected = step.expected else {
        context.stdout.line(head + style.dim("  (no recorded state to compare)"))
        continue
      }
      if let difference = ActionReplay.firstDifference(expected: expected.value, actual: now.value) {
        context.stdout.line(head + "  " + style.apply(.red, "differs"))
        context.stdout.line(
          style.apply(.red, "The program's state first differs from the recording's after #\(step.seq) \(step.action)")
            + " (action \(number + 1) of \(replay.steps.count), sent as #\(seq); recorded state at #\(step.expectedSeq)):")
        context.stdout.line("  \(step.root) \(ActionReplay.describe(difference))")
        if expected.approximate { context.stdout.line(style.dim("  (the recorded state is approximate: a size cap cut part of it)")) }
        await connection.close()
        return 1
      }
      context.stdout.line(head + style.dim("  same state"))
    }
    context.stdout.line("The program's state matched the recording's after each of \(Formatting.plural(replay.steps.count, "action")).")
    await connection.close()
    return 0
  }
}

/// The live program's events, in a session model of their own: a task takes them off the
/// connection; the replay moves them into the model when it needs them, and waits for them
/// with a deadline (this is a command, not a test: it polls).
private final class LiveSession: @unchecked Sendable {
  let model = SessionModel()
  private final class Arrivals: Sendable {
    let state = Lock<(events: [Event], closed: Bool)>(([], false))
  }
  private let arrivals = Arrivals()
  private var reader: Task<Void, Never>?

  init(client: LoupeClient) {
    let arrivals = self.arrivals
    reader = Task {
      for await event in client.events { arrivals.state.withLock { $0.events.append(event) } }
      arrivals.state.withLock { $0.closed = true }
    }
  }

  deinit { reader?.cancel() }

  var lastSeq: Int { model.count == 0 ? 0 : model.seq(at: model.count - 1) }
  /// What the program's effects did since ``countEffectWork()``, kept up as events arrive.
  private(set) var effectWork = ActionReplay.EffectWork()
  private var countsEffectWork = false

  /// Counts effects' work from the next event on (the replay's first action).
  func countEffectWork() {
    effectWork = ActionReplay.EffectWork()
    countsEffectWork = true
  }

  /// Moves what arrived into the model; `false` once the connection is closed and drained.
  private func drain() -> Bool {
    let (events, closed) = arrivals.state.withLock { state in
      defer { state.events = [] }
      return (state.events, state.closed)
    }
    for event in events {
      model.append(event)
      if countsEffectWork { effectWork.count(at: model.count - 1, in: model) }
    }
    return !(closed && events.isEmpty)
  }

  /// Waits until `done` holds of the model, for at most `limit`; `false` when it did not.
  func wait(atMost limit: Duration, until done: () -> Bool) async throws(CommandFailure) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while true {
      let open = drain()
      if done() { return true }
      guard open else { throw CommandFailure("the program closed the connection during the replay") }
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}
