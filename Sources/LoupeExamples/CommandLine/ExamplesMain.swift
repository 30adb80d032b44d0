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
    await run(command, on: timeline, narrate: narrates ? narrate : nil)
    return 0
  }

  /// Runs the scenario `command` names on `timeline`, with the shared event bus.
  @MainActor
  static func run(
    _ command: ExamplesCommand, on timeline: ScriptTimeline, bus: EventBus = .shared,
    narrate: (@MainActor (Duration, String) -> Void)?
  ) async {
    let duration = Duration.seconds(command.seconds * command.speed)
    switch command.scenario {
    case .pages:
      let scenario = PagesScenario(sharedCancellation: command.sharedCancellation, bus: bus, clock: timeline.clock)
      await ScriptRunner.run(scenario, for: duration, once: command.once, on: timeline, narrate: narrate)
    case .game:
      await ScriptRunner.run(
        GameScenario(bus: bus, clock: timeline.clock), for: duration, once: command.once, on: timeline, narrate: narrate)
    case .todos:
      await ScriptRunner.run(
        TodosScenario(bus: bus, clock: timeline.clock), for: duration, once: command.once, on: timeline, narrate: narrate)
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
