import Foundation
import LoupeCore
import LoupeSession
import LoupeClient

/// The `loupe` command-line tool: finds the subcommand, parses its arguments, prints help and
/// errors in swift-argument-parser's style, and returns the exit status of CONTRACT §8.
public enum LoupeCLI {
  /// This build's version, printed by `loupe --version`.
  public static let version = "0.1.0"

  static let commands: [any Command.Type] = [
    AttachCommand.self, RecordCommand.self, ShowCommand.self, StateCommand.self, StatsCommand.self,
    DoctorCommand.self, ExportCommand.self, ReplayCommand.self, DAPCommand.self, MCPCommand.self, SendCommand.self, SetStateCommand.self, ReplayActionsCommand.self, DemoCommand.self,
  ]

  /// Runs `loupe` with `arguments` (without the program name) on the process's standard
  /// streams and returns the exit status.
  public static func main(arguments: [String]) async -> Int32 {
    CommandSignals.ignoreBrokenPipe()
    let environment = ProcessInfo.processInfo.environment
    let context = CommandContext(
      stdout: Output(fd: LibC.standardOutput, environment: environment),
      stderr: Output(fd: LibC.standardError, environment: environment),
      environment: environment,
      executableDirectory: executableDirectory())
    let status = await run(arguments, in: context)
    context.stdout.flush()
    context.stderr.flush()
    return status
  }

  /// Runs `loupe` with `arguments` in `context` (tests pass in-memory streams).
  static func run(_ arguments: [String], in context: CommandContext) async -> Int32 {
    let topLevel = commands.map { $0.configuration }
    guard let first = arguments.first else {
      context.stdout.write(HelpFormatter.topLevelHelp(commands: topLevel))
      return ExitStatus.success
    }
    switch first {
    case "--version":
      context.stdout.line("loupe \(version) (protocol \(loupeProtocolVersion))")
      return ExitStatus.success
    case "-h", "--help":
      context.stdout.write(HelpFormatter.topLevelHelp(commands: topLevel))
      return ExitStatus.success
    case "help":
      guard arguments.count > 1 else {
        context.stdout.write(HelpFormatter.topLevelHelp(commands: topLevel))
        return ExitStatus.success
      }
      guard let command = command(named: arguments[1]) else {
        return topLevelError(unknownCommand(arguments[1]), in: context)
      }
      context.stdout.write(HelpFormatter.help(for: command.configuration))
      return ExitStatus.success
    default:
      guard let command = command(named: first) else {
        let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : unknownCommand(first)
        return topLevelError(message, in: context)
      }
      return await run(command, Array(arguments.dropFirst()), in: context)
    }
  }

  private static func run(_ type: any Command.Type, _ arguments: [String], in context: CommandContext) async -> Int32 {
    let configuration = type.configuration
    let command: any Command
    do throws(UsageError) {
      let parsed = try ArgumentParser.parse(arguments, for: configuration)
      if parsed.wantsHelp {
        context.stdout.write(HelpFormatter.help(for: configuration))
        return ExitStatus.success
      }
      command = try type.init(arguments: parsed)
      try command.validate()
    } catch {
      context.stderr.line("Error: \(error.message)")
      context.stderr.line("Usage: \(HelpFormatter.usage(configuration))")
      context.stderr.line("See 'loupe \(configuration.name) --help'.")
      return ExitStatus.usage
    }
    do throws(CommandFailure) {
      return try await command.run(in: context)
    } catch {
      context.stdout.flush()
      context.stderr.line("Error: \(error.message)")
      return ExitStatus.failure
    }
  }

  private static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.configuration.name == name }
  }

  private static func unknownCommand(_ name: String) -> String {
    let names = commands.map { $0.configuration.name }
    if let best = names.min(by: { ArgumentParser.editDistance($0, name) < ArgumentParser.editDistance($1, name) }),
      ArgumentParser.editDistance(best, name) <= 2
    {
      return "Unknown command '\(name)'. Did you mean '\(best)'?"
    }
    return "Unknown command '\(name)'"
  }

  private static func topLevelError(_ message: String, in context: CommandContext) -> Int32 {
    context.stderr.line("Error: \(message)")
    context.stderr.line("Usage: loupe <subcommand>")
    context.stderr.line("See 'loupe --help'.")
    return ExitStatus.usage
  }

  /// The directory of the running executable (`/proc/self/exe` on Linux).
  static func executableDirectory() -> String? {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
      }
    #endif
    guard let first = CommandLine.arguments.first else { return nil }
    return URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent().path
  }
}
