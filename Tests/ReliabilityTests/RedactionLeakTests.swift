import Foundation
import LoupeCore
import LoupeRPC
import Testing

extension ReliabilitySuites {
  /// A secret planted in a real program (`loupe-examples probe --secret`, see `VaultFeature`)
  /// under `LoupeRedacted` types and `LOUPE_REDACT` globs never leaves it: not in any byte of
  /// the wire (events, `loupe/state` whole, by path and into redacted parts), of the program's
  /// own trace, of `loupe record`'s trace, or of any output of `loupe show`, `stats`, `doctor`,
  /// `export`, `replay` and `attach`.
  @Suite(.timeLimit(.minutes(3))) struct RedactionLeakTests {
    let secret = "S3CR3T-\(UUID().uuidString.prefix(12))"
    let redact = #"*token*,*Token*,notes["secret"],noteSaved.text"#
    var environment: [String: String] {
      ["LOUPE_REDACT": redact, "PATH": (BuiltProducts.directory ?? "") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// Fails if `bytes` hold the secret; returns them as text for positive checks.
    @discardableResult
    func expectNoSecret(_ bytes: some Sequence<UInt8>, in what: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
      let text = String(decoding: Array(bytes), as: UTF8.self)
      #expect(!text.contains(secret), "the secret leaked in \(what)", sourceLocation: sourceLocation)
      return text
    }

    @Test func notOnTheWireNorInTheProgramsTrace() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("own.loupe")
      var env = environment
      env["LOUPE_RECORD"] = trace
      let probe = try ListeningProbe(["--secret", secret, "--hold"], environment: env)
      let client = try RawConnection(socketPath: probe.socketPath)
      try client.initialize()
      _ = try client.call(SubscribeRequest(history: true).message(id: "subscribe"))
      client.send(MarkRequest(label: "probe:echo sync").message(id: "sync"))
      let history = try client.readEvents(untilMark: "echo sync")  // the whole session so far
      // Every kind of event the vault emits went by, with values in them.
      let vault = history.filter { $0.store == "Vault#1" }
      #expect(Set(vault.map(\.kind)).isSuperset(of: ["action.received", "state.changed", "effect.started", "effect.finished"]))

      var answers: [String] = []
      answers.append(try client.call(StoresRequest().message(id: "stores")).jsonText)
      let whole = try client.call(StateRequest(store: "Vault#1").message(id: "whole"))
      #expect(whole["state"]?["user"] == "alice")
      #expect(whole["state"]?["password"] == .string(RenderMarker.redacted))
      answers.append(whole.jsonText)
      for path in [
        "password", "password.text", "apiToken", "credentials", "credentials[id: 1]", "credentials[id: 1].password",
        "credentials[id: 1].password.text", "credentials[id: 2].apiToken", "notes", #"notes["secret"]"#, "session",
        "session.signedIn", "session.signedIn.token", "failures",
      ] {
        client.send(StateRequest(store: "Vault#1", path: path).message(id: .string(path)))
        var answer = JSON.null
        while answer["id"] != .string(path) {
          guard case .message(let next) = client.readAnswer() else { throw TestFailure("no answer for \(path)") }
          answer = next
        }
        answers.append(answer.jsonText)
      }
      for answer in answers { expectNoSecret(answer.utf8, in: "a loupe/state or loupe/stores answer") }
      expectNoSecret(client.received, in: "the bytes of the socket connection")

      let end = try probe.exit()
      #expect(end.termination == .exited(0))
      expectNoSecret((end.stdout + end.stderr).utf8, in: "the program's output")
      let own = expectNoSecret(try Data(contentsOf: URL(fileURLWithPath: trace)), in: "the LOUPE_RECORD trace")
      #expect(own.contains(RenderMarker.redacted))
      #expect(own.contains(#""kind":"effect.finished","store":"Vault#1""#))
      // The error's text that spelled the token out still says what happened.
      #expect(own.contains(#"reason: \"token <redacted> was refused\""#))
    }

    @Test func notInLoupeRecordNorAnythingThatReadsTheTrace() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("recorded.loupe")
      let record = try ChildProcess.run("loupe", ["record", trace, "--", "loupe-examples", "probe", "--secret", secret], environment: environment)
      #expect(record.termination == .exited(0))
      expectNoSecret((record.stdout + record.stderr).utf8, in: "loupe record's output")
      let text = expectNoSecret(try Data(contentsOf: URL(fileURLWithPath: trace)), in: "loupe record's trace")
      #expect(text.contains(RenderMarker.redacted))

      let chrome = directory.file("chrome.json")
      for arguments in [
        ["show", trace], ["show", trace, "--format", "json"], ["show", trace, "--format", "changes"],
        ["show", trace, "--store", "Vault*"], ["stats", trace], ["stats", trace, "--json"], ["doctor", trace],
        ["doctor", trace, "--json"], ["export", trace, "--chrome-trace", chrome],
        ["export", trace, "--otlp", directory.file("otlp.jsonl"), "--perfetto", directory.file("trace.pftrace")],
      ] {
        let run = try ChildProcess.run("loupe", arguments, environment: environment)
        #expect(run.status != nil, "loupe \(arguments.joined(separator: " ")) \(run.termination)")
        expectNoSecret((run.stdout + run.stderr).utf8, in: "loupe \(arguments.joined(separator: " "))")
      }
      expectNoSecret(try Data(contentsOf: URL(fileURLWithPath: chrome)), in: "the exported Chrome trace")
      let otlp = expectNoSecret(try Data(contentsOf: URL(fileURLWithPath: directory.file("otlp.jsonl"))), in: "the exported OTLP")
      #expect(otlp.contains(RenderMarker.redacted))
      expectNoSecret(try Data(contentsOf: URL(fileURLWithPath: directory.file("trace.pftrace"))), in: "the exported Perfetto trace")

      // Replayed to an editor, state requests included.
      let replay = try ChildProcess("loupe", ["replay", trace], environment: environment, keepStdinOpen: true)
      defer { replay.killIfRunning() }
      func send(_ messages: Message...) { replay.stdin?.write(Data(messages.flatMap { FrameEncoder.frame($0.body) })) }
      send(
        InitializeRequest().message(id: 1), SubscribeRequest(history: true).message(id: 2),
        StateRequest(store: "Vault#1", path: "apiToken").message(id: 3), StateRequest(store: "Vault#1", path: "password").message(id: 4))
      for needle in [#""id":3,"#, #""id":4,"#, #""effect.finished","store":"Vault#1""#] { try replay.stdout.wait(for: needle) }
      send(ShutdownRequest().message(id: 5))
      try replay.stdout.wait(for: #""id":5,"result":null"#)
      send(ExitNotification().message)
      let replayed = try replay.finish()
      #expect(replayed.termination == .exited(0))
      expectNoSecret((replayed.stdout + replayed.stderr).utf8, in: "loupe replay's output")
    }

    @Test(arguments: ["text", "changes", "json"]) func notInLoupeAttach(format: String) throws {
      let run = try ChildProcess.run(
        "loupe", ["attach", "--format", format, "--", "loupe-examples", "probe", "--secret", secret], environment: environment)
      #expect(run.termination == .exited(0))
      let output = expectNoSecret((run.stdout + run.stderr).utf8, in: "loupe attach --format \(format)")
      #expect(output.contains("Vault#1"))
    }

    @Test func notThroughTheEditorBridge() throws {
      let bridge = try ChildProcess(
        "loupe", ["attach", "--stdio", "--", "loupe-examples", "probe", "--secret", secret, "--hold"], environment: environment,
        keepStdinOpen: true)
      defer { bridge.killIfRunning() }
      func send(_ messages: Message...) { bridge.stdin?.write(Data(messages.flatMap { FrameEncoder.frame($0.body) })) }
      send(InitializeRequest().message(id: 1), SubscribeRequest(history: true).message(id: 2))
      try bridge.stdout.wait(for: #""effect.finished","store":"Vault#1""#)  // the vault is done
      send(StateRequest(store: "Vault#1").message(id: 3))
      try bridge.stdout.wait(for: #""id":3,"result""#)
      try bridge.stderr.wait(for: "probe: ready")  // takes commands from now on
      send(MarkRequest(label: "probe:exit").message(id: 4))
      let end = try bridge.finish()
      #expect(end.termination == .exited(0))
      expectNoSecret((end.stdout + end.stderr).utf8, in: "loupe attach --stdio")
    }
  }
}
