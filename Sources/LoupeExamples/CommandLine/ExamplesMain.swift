import Foundation
import Loupe

/// `loupe-examples`: parses the command line and runs a scenario in real time.
public enum ExamplesMain {
  /// Runs `loupe-examples` with `arguments` (without the program name) and returns the exit
  /// status: 0 after the scenario ran, 2 for a usage error.
  @MainActor
  public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async
    -> Int32
  {
    let command: ExamplesCommand
    do {
      switch try ExamplesCommand.parse(arguments) {
      case .help:
        write(ExamplesCommand.help, to: .standardOutput)
        return 0
      case .run(let parsed):
        command = parsed
      }
    } catch {
      write("Error: \(error.message)\nUsage: \(ExamplesCommand.usage)\nSee 'loupe-examples --help'.\n", to: .standardError)
      return 2
    }
    // Under LOUPE=stdio standard output belongs to the protocol (the runtime sends print()
    // to stderr), and 'loupe attach' shows the events themselves: narrate only otherwise.
    let narrates = !command.quiet && environment["LOUPE"]?.trimmingCharacters(in: .whitespaces).lowercased() != "stdio"
    let timeline = ScriptTimeline.live(speed: command.speed)
    var stateLog: StateLog?
    if let path = command.stateLog {
      do {
        stateLog = try StateLog(path: path, bus: .shared)
      } catch {
        write("Error: cannot write the state log '\(path)': \(error.localizedDescription)\n", to: .standardError)
        return 1
      }
    }
    await run(command, on: timeline, narrate: narrates ? narrate : nil, stateLog: stateLog)
    return 0
  }

  /// Runs the scenario `command` names on `timeline`, with the shared event bus.
  @MainActor
  static func run(
    _ command: ExamplesCommand, on timeline: ScriptTimeline, bus: EventBus = .shared,
    narrate: (@MainActor (Duration, String) -> Void)?, stateLog: StateLog? = nil
  ) async {
    let duration = Duration.seconds(command.seconds * command.speed)
    func play(_ scenario: some Scenario) async {
      var afterStep: (@MainActor () -> Void)?
      if let stateLog { afterStep = { stateLog.record(scenario) } }
      await ScriptRunner.run(
        scenario, for: duration, once: command.once, idle: command.idle, on: timeline, narrate: narrate, afterStep: afterStep)
    }
    switch command.scenario {
    case .pages:
      await play(PagesScenario(sharedCancellation: command.sharedCancellation, bus: bus, clock: timeline.clock))
    case .game:
      await play(GameScenario(bus: bus, clock: timeline.clock))
    case .todos:
      await play(
        TodosScenario(
          todoCount: command.todoCount ?? ExamplesCommand.defaultTodoCount, search: TodoSearch(), mutant: command.mutant, bus: bus,
          clock: timeline.clock))
    }
  }

  @MainActor
  private static func narrate(_ time: Duration, _ line: String) {
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    write(String(format: "%6.2fs  ", seconds) + line + "\n", to: .standardOutput)
  }

  private static func write(_ text: String, to handle: FileHandle) {
    try? handle.write(contentsOf: Data(text.utf8))
  }
}
