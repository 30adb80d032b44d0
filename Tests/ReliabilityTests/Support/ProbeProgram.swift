import Foundation
import LoupeCore
import LoupeRPC

/// A scratch directory only this user can use (mode 0700), removed when released.
final class PrivateDirectory: Sendable {
  let path: String

  init() {
    var template = Array("/tmp/loupe-rel-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(created != nil, "mkdtemp failed")
    path = String(cString: created!)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }
}

/// `loupe-examples probe` (see `Sources/LoupeExamples/Probe/`) listening with `LOUPE=unix:PATH`
/// in a private directory, started and ready.
final class ListeningProbe: Sendable {
  let child: ChildProcess
  let directory: PrivateDirectory
  let socketPath: String

  init(_ arguments: [String] = ["--hold"], environment: [String: String] = [:], socketName: String = "probe.sock") throws {
    directory = PrivateDirectory()
    socketPath = directory.file(socketName)
    var env = environment
    env["LOUPE"] = "unix:\(socketPath)"
    child = try ChildProcess("loupe-examples", ["probe"] + arguments, environment: env)
    try child.stdout.wait(for: "probe: ready")
  }

  deinit { child.killIfRunning() }

  /// Proves the program is unaffected: a new connection is initialized and `loupe/stores`
  /// lists the probe's store.
  func expectServing() throws {
    let connection = try RawConnection(socketPath: socketPath)
    try connection.initialize()
    connection.send(StoresRequest().message(id: "check"))
    guard case .message(let answer) = connection.readAnswer(),
      answer["result"]?["stores"]?.arrayValue?.first?["id"] == "Probe#1"
    else { throw TestFailure("the program no longer answers loupe/stores") }
  }

  /// Asks the probe to exit (`probe:exit`) and returns how it ended.
  func exit() throws -> ChildProcess.Finished {
    let connection = try RawConnection(socketPath: socketPath)
    try connection.initialize()
    _ = try connection.call(MarkRequest(label: "probe:exit").message(id: "exit"))
    // Gone before the program ends: it need not wait for this client to subscribe.
    connection.close()
    return try child.finish()
  }
}
