import Foundation
import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// What `loupe send`, `loupe set-state` and `loupe replay-actions` share: a connection to a
/// running program (`--socket PATH` or `--tcp HOST:PORT`), opened with `initialize` under
/// the command's name, so that what it causes is attributed to it (CONTRACT §16).
struct ControlConnection: Sendable {
  let client: LoupeClient
  /// The socket path or TCP endpoint, for messages.
  let name: String

  /// `--socket PATH` or `--tcp HOST:PORT [--token T]` (a command to launch is not accepted:
  /// control acts on a program that is already running).
  static func target(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) -> AttachSession.Target {
    if arguments.value("--socket") == nil, arguments.value("--tcp") == nil {
      throw UsageError("Missing the program to act on: '--socket PATH' or '--tcp HOST:PORT' (a program started with LOUPE=unix:PATH or LOUPE=tcp:HOST:PORT, and LOUPE_CONTROL=1)")
    }
    return try AttachCommand.target(arguments, environment: environment)
  }

  /// Connects and initializes as `clientName`.
  static func open(_ target: AttachSession.Target, clientName: String) async throws(CommandFailure) -> ControlConnection {
    let name: String
    let client: LoupeClient
    do {
      switch target {
      case .socket(let path):
        (name, client) = (path, try LoupeClient.connect(socketPath: path))
      case .tcp(let endpoint, let token):
        (name, client) = (endpoint.description, try LoupeClient.connect(tcp: endpoint, token: token))
      case .launch:
        throw CommandFailure("control acts on a running program: give '--socket PATH' or '--tcp HOST:PORT'")
      }
    } catch let error as ClientError {
      throw CommandFailure(error.description)
    } catch {
      throw CommandFailure("\(error)")
    }
    do {
      _ = try await client.initialize(clientName: clientName, clientVersion: LoupeCLI.version)
    } catch {
      client.close()
      throw CommandFailure("'\(name)' did not answer initialize: \(Self.describe(error))")
    }
    return ControlConnection(client: client, name: name)
  }

  /// One request on a connection of its own: opened as `clientName`, closed after the answer.
  static func perform<R: RequestType>(
    _ request: R, on target: AttachSession.Target, as clientName: String
  ) async throws(CommandFailure) -> R.Result {
    let connection = try await open(target, clientName: clientName)
    let result: R.Result
    do {
      result = try await connection.send(request)
    } catch {
      await connection.close()
      throw error
    }
    await connection.close()
    return result
  }

  /// Sends `request`; a refusal is worded for the command line.
  func send<R: RequestType>(_ request: R) async throws(CommandFailure) -> R.Result {
    do {
      return try await client.send(request)
    } catch {
      throw CommandFailure(Self.describe(error))
    }
  }

  func close() async {
    _ = try? await client.shutdown()
    client.close()
  }

  /// The server's own message for an error answer (it names the type, the path and what to
  /// do), else the client's description.
  static func describe(_ error: ClientError) -> String {
    if case .response(let response) = error { return response.message }
    return error.description
  }

  /// An action or a state given on the command line: JSON text, `@FILE`, or `-` for standard
  /// input. A word that is not JSON (`incrementTapped`) is a case without payload: the string.
  static func value(_ argument: String, what: String) throws(CommandFailure) -> JSON {
    var text = argument
    if argument == "-" || argument.hasPrefix("@") {
      let data: Data?
      if argument == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
      } else {
        data = FileManager.default.contents(atPath: String(argument.dropFirst()))
      }
      guard let data, let read = String(data: data, encoding: .utf8) else {
        throw CommandFailure("cannot read the \(what) from '\(argument == "-" ? "standard input" : String(argument.dropFirst()))'")
      }
      text = read
    }
    do {
      return try JSONParser.parse(text)
    } catch {
      let word = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !(word.first?.isNumber ?? true) {
        return .string(word)
      }
      throw CommandFailure("the \(what) is not JSON: \(error) (give it as loupe prints it, e.g. '{\"queryChanged\":\"pay\"}' or a case name)")
    }
  }
}
