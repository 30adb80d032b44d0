import Foundation
import LoupeCore
import LoupeRPC

/// Turns the inspector on from the environment, once per process.
///
/// The store calls ``run()`` when the first store is created, so a program needs no code to be
/// inspectable; a program without stores (or that wants the server before its first store)
/// may call it itself at the top of `main`. Activation reads:
///
/// | variable | effect |
/// |---|---|
/// | `LOUPE` unset, empty or `off` | no server |
/// | `LOUPE=stdio` | serve on stdin/stdout (fd 1 then goes to stderr) |
/// | `LOUPE=unix:PATH` | listen on a Unix socket at PATH |
/// | `LOUPE=tcp:HOST:PORT` | listen on TCP, loopback hosts only (`127.0.0.1`, `::1`, `localhost`), port 0 picks one; prints `loupe: listening on HOST:PORT` |
/// | `LOUPE_TOKEN=SECRET` | the token TCP clients must send in `initialize` (else a random one, printed once as `loupe: token SECRET`) |
/// | `LOUPE_RECORD=FILE` | write a trace file |
/// | `LOUPE_REDACT=GLOB,...` | redact these state paths everywhere |
/// | `LOUPE_CONTROL=1` | tools may send actions and replace a root store's state (`loupe/send`, `loupe/setState`); off by default |
/// | `LOUPE_SOURCE_PATHS=off` | events' `source` locations leave out `path` (the `#filePath`) |
/// | `LOUPE_EXIT_TIMEOUT=SECONDS` | the longest the process may take at exit to serve and flush its clients (default 2) |
/// | `LOUPE_MAX_CLIENTS=N` | the most socket clients served at once (default 32); more are refused with an error |
/// | `LOUPE_THREAD_NICE=N` | the inspector's own threads run N nice levels below the program's (default 0; 0–19) |
/// | `LOUPE_SNAPSHOT_ACTIONS=N` | a root store's `state.snapshot` every N actions (default 1000; 0: none by count) |
/// | `LOUPE_SNAPSHOT_BYTES=N` | … or once its changes since the last one hold N bytes (default 1048576; 0: none by size) |
///
/// A value that cannot be honoured (a bad `LOUPE`, a socket path in use) is reported on stderr
/// as `loupe: …` and otherwise ignored: the program always runs.
public enum InspectorAutostart {
  /// Activates from the process environment the first time it is called; later calls do
  /// nothing. Thread-safe.
  public static func run() {
    once
  }

  private static let once: Void = {
    for problem in activate(ProcessInfo.processInfo.environment, inspector: .shared) {
      FileHandle.standardError.write(Data("loupe: \(problem)\n".utf8))
    }
  }()

  /// Applies `environment` to `inspector`; returns the problems found (for stderr).
  @discardableResult
  static func activate(_ environment: [String: String], inspector: Inspector) -> [String] {
    var problems: [String] = []
    if let value = environment["LOUPE_EXIT_TIMEOUT"] {
      if let timeout = exitTimeout(fromEnvironment: value) {
        inspector.configuration.exitFlushTimeout = timeout
      } else {
        problems.append("ignoring LOUPE_EXIT_TIMEOUT=\(value) (expected seconds from 0 to 3600, e.g. 2 or 0.5)")
      }
    }
    if let value = environment["LOUPE_MAX_CLIENTS"] {
      if let count = Int(value.trimmingCharacters(in: .whitespaces)), (1...100_000).contains(count) {
        inspector.configuration.maxClients = count
      } else {
        problems.append("ignoring LOUPE_MAX_CLIENTS=\(value) (expected a number of clients from 1 to 100000, e.g. 32)")
      }
    }
    if let value = environment["LOUPE_THREAD_NICE"] {
      if let levels = Int(value.trimmingCharacters(in: .whitespaces)), (0...19).contains(levels) {
        inspector.configuration.threadNiceness = levels
      } else {
        problems.append("ignoring LOUPE_THREAD_NICE=\(value) (expected nice levels from 0 to 19, e.g. 10; 0 runs the inspector's threads at the program's priority)")
      }
    }
    for (name, keyPath) in [("LOUPE_SNAPSHOT_ACTIONS", \SnapshotPolicy.actions), ("LOUPE_SNAPSHOT_BYTES", \SnapshotPolicy.bytes)] {
      guard let value = environment[name] else { continue }
      if let count = SnapshotPolicy.count(fromEnvironment: value) {
        inspector.bus.snapshotPolicy[keyPath: keyPath] = count
      } else {
        problems.append("ignoring \(name)=\(value) (expected a whole number from 0 to 1000000000; 0 turns it off)")
      }
    }
    if let redact = environment["LOUPE_REDACT"] {
      inspector.bus.renderOptions.redactedPaths = RenderOptions.redactedPaths(fromEnvironment: redact)
    }
    if let value = environment["LOUPE_CONTROL"] {
      switch value.trimmingCharacters(in: .whitespaces).lowercased() {
      case "1", "on", "true", "yes": inspector.configuration.allowsControl = true
      case "0", "off", "false", "no", "": inspector.configuration.allowsControl = false
      default: problems.append("ignoring LOUPE_CONTROL=\(value) (expected 1 to let tools send actions and set state, or 0)")
      }
    }
    if let value = environment["LOUPE_SOURCE_PATHS"] {
      if let include = sourcePaths(fromEnvironment: value) {
        inspector.bus.includesSourcePaths = include
      } else {
        problems.append("ignoring LOUPE_SOURCE_PATHS=\(value) (expected on or off)")
      }
    }
    if let file = environment["LOUPE_RECORD"], !file.isEmpty {
      do { try inspector.start(.record(file)) } catch { problems.append("LOUPE_RECORD: \(error)") }
    }
    switch InspectorMode(environmentValue: environment["LOUPE"]) {
    case .off: break
    case .tcp(let address):
      problems += startTCP(address, token: environment["LOUPE_TOKEN"], inspector: inspector)
    case .channel(let channel):
      do {
        try inspector.start(channel)
        if channel == .unix(InspectorMode.defaultSocketPath) { problems.append("listening on \(InspectorMode.defaultSocketPath)") }
      } catch {
        problems.append("LOUPE: \(error)")
      }
    case .invalid(let value):
      problems.append("ignoring LOUPE=\(value) (expected off, stdio, unix:PATH or tcp:HOST:PORT)")
    }
    return problems
  }

  /// `LOUPE=tcp:HOST:PORT`: the lines for stderr (where it listens, the token when it made one,
  /// or why it does not listen).
  static func startTCP(_ address: String, token given: String?, inspector: Inspector) -> [String] {
    let endpoint: LoopbackEndpoint
    do {
      endpoint = try LoopbackEndpoint(parsing: address)
    } catch {
      return ["LOUPE: \(error) (not listening; the program runs on)"]
    }
    let token = given.flatMap { $0.isEmpty ? nil : $0 } ?? TokenGate.randomToken()
    do {
      let listening = try inspector.startTCP(on: endpoint, token: token)
      var lines = ["listening on \(listening)"]
      if given == nil || given!.isEmpty { lines.append("token \(token)") }
      return lines
    } catch {
      return ["LOUPE: \(error) (not listening; the program runs on)"]
    }
  }

  /// `LOUPE_SOURCE_PATHS`: whether `source` keeps `path`; `nil` when invalid.
  static func sourcePaths(fromEnvironment value: String) -> Bool? {
    switch value.trimmingCharacters(in: .whitespaces).lowercased() {
    case "", "on", "1", "true", "yes": true
    case "off", "0", "false", "no": false
    default: nil
    }
  }

  /// `LOUPE_EXIT_TIMEOUT`: seconds (a decimal number from 0 to 3600); `nil` when invalid.
  static func exitTimeout(fromEnvironment value: String) -> Duration? {
    guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds >= 0, seconds <= 3600 else {
      return nil
    }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }
}

/// The parsed value of `LOUPE`.
enum InspectorMode: Sendable, Hashable {
  /// `LOUPE=unix` without a path: `/tmp/loupe-PID.sock`, short enough for any sun_path (an
  /// iOS Simulator app shares the Mac's /tmp); `loupe: listening on PATH` says which.
  static var defaultSocketPath: String { "/tmp/loupe-\(LibC.processID).sock" }

  case off
  case channel(Inspector.Channel)
  /// `tcp:HOST:PORT`, checked when it starts (the error goes to stderr).
  case tcp(String)
  case invalid(String)

  init(environmentValue value: String?) {
    guard let value else {
      self = .off
      return
    }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    switch trimmed.lowercased() {
    case "", "off", "0", "false", "no": self = .off
    case "stdio": self = .channel(.stdio)
    // The short default path (a simulator's container paths exceed sun_path's 104 bytes).
    case "unix", "unix:": self = .channel(.unix(Self.defaultSocketPath))
    default:
      if trimmed.hasPrefix("unix:"), trimmed.count > 5 {
        self = .channel(.unix(String(trimmed.dropFirst(5))))
      } else if trimmed.hasPrefix("tcp:"), trimmed.count > 4 {
        self = .tcp(String(trimmed.dropFirst(4)))
      } else {
        self = .invalid(value)
      }
    }
  }
}
