import Foundation

/// One bad input given to a whole process — a trace file to `loupe`, arguments to `loupe`, an
/// environment to a program — and the documented outcome: exit status and message.
struct CommandCase: Sendable, CustomStringConvertible {
  var id: String
  var executable = "loupe"
  /// `{dir}` is replaced by the case's private scratch directory.
  var arguments: [String]
  var environment: [String: String] = [:]
  /// Files written into `{dir}` first: name and contents.
  var files: [(name: String, bytes: [UInt8])] = []
  var status: Int32
  /// Standard error, exactly (after `{dir}` is replaced), or `nil` to check `stderrContains`.
  var stderr: String?
  var stderrContains: [String] = []
  var stdoutContains: [String] = []

  var description: String { id }
}

private let header = #"{"format":"loupe-trace","version":1,"program":"Counter","pid":7,"startedAt":"2026-11-22T09:00:00.000Z"}"#
private let started = #"{"seq":1,"time":0.0,"kind":"session.started","pid":7,"program":"Counter","protocolVersion":"1","startedAt":"2026-11-22T09:00:00.000Z"}"#
private let mark = #"{"seq":2,"time":1.5,"kind":"mark","label":"checkpoint"}"#
private let mark3 = #"{"seq":3,"time":2.5,"kind":"mark","label":"after"}"#

private func trace(_ lines: String...) -> [(name: String, bytes: [UInt8])] {
  [("t.loupe", Array(lines.joined(separator: "\n").utf8))]
}

private func usage(_ message: String, _ usage: String, _ command: String) -> String {
  "Error: \(message)\nUsage: loupe \(command) \(usage)\nSee 'loupe \(command) --help'.\n"
}

private let showUsage = "FILE [FILTER] [--format text|json|changes]"
private let recordUsage = "FILE [FILTER] [--socket PATH | --tcp HOST:PORT [--token T] | -- COMMAND [ARG...]]"
private let attachUsage = "[FILTER] [--record FILE] [--format text|json|changes] [--stdio] [--socket PATH | --tcp HOST:PORT [--token T] | -- COMMAND [ARG...]]"

extension MalformedInput {
  /// Damaged and foreign trace files, read by `loupe show`: refused with status 3 and a
  /// sentence saying what the file is, or read with a warning, keeping every complete event.
  static let traces: [CommandCase] = [
    CommandCase(
      id: "trace.empty", arguments: ["show", "{dir}/t.loupe"], files: trace(""), status: 3,
      stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: the file is empty.\n"),
    CommandCase(
      id: "trace.binary", arguments: ["show", "{dir}/t.loupe"], files: [("t.loupe", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0])],
      status: 3, stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: it holds binary data, not JSON Lines.\n"),
    CommandCase(
      id: "trace.foreign-json", arguments: ["show", "{dir}/t.loupe"], files: trace(#"{"name":"package.json"}"#, ""), status: 3,
      stderr: #"Error: '{dir}/t.loupe' is not a Loupe trace: its first line is JSON without a "format" member."# + "\n"),
    CommandCase(
      id: "trace.newer-version", arguments: ["show", "{dir}/t.loupe"],
      files: trace(#"{"format":"loupe-trace","version":2,"program":"Future","pid":1,"startedAt":"2030-01-01T00:00:00.000Z"}"#, ""),
      status: 3,
      stderr: "Error: '{dir}/t.loupe' is a version 2 Loupe trace, but this loupe reads version 1 only. Update loupe to read it.\n"),
    CommandCase(
      id: "trace.missing", arguments: ["show", "{dir}/none.loupe"], status: 3,
      stderr: "Error: Cannot open '{dir}/none.loupe': No such file or directory.\n"),
    CommandCase(
      id: "trace.directory", arguments: ["show", "{dir}"], status: 3, stderr: "Error: Cannot open '{dir}': Is a directory.\n"),
    CommandCase(
      id: "trace.truncated-header", arguments: ["show", "{dir}/t.loupe"], files: trace(#"{"format":"loupe-trace","vers"#),
      status: 3,
      stderr: "Error: '{dir}/t.loupe' ends inside its header line: the recording stopped before any event was written.\n"),
    CommandCase(
      id: "trace.empty-first-line", arguments: ["show", "{dir}/t.loupe"], files: trace("", header, started), status: 3,
      stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: its first line is empty.\n"),
    CommandCase(
      id: "trace.huge-first-line", arguments: ["show", "{dir}/t.loupe"],
      files: trace("{\"format\":\"" + String(repeating: "x", count: 100_000) + "\"}", started), status: 3,
      stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: its first line is not a trace header (it is over 64 KiB long).\n"),
    CommandCase(
      id: "trace.truncated-last-line", arguments: ["show", "{dir}/t.loupe", "--format", "json"],
      files: trace(header, started, mark, #"{"seq":3,"time":2.5,"ki"#), status: 0,
      stderr:
        "warning: {dir}/t.loupe: the trace ends inside line 4 (23 bytes after the last complete event, ignored); the recording was cut short\n",
      stdoutContains: [started + "\n" + mark + "\n"]),
    CommandCase(
      id: "trace.damaged-middle-line", arguments: ["show", "{dir}/t.loupe", "--format", "json"],
      files: trace(header, started, #"{"seq":2,"ti"#, mark3, ""), status: 0,
      stderr: "warning: {dir}/t.loupe: line 3: Invalid JSON: Unterminated string at byte 9; skipped\n", stdoutContains: [started + "\n" + mark3 + "\n"]),
    CommandCase(
      id: "trace.event-without-seq", arguments: ["show", "{dir}/t.loupe", "--format", "json"],
      files: trace(header, #"{"time":1.5,"kind":"mark","label":"x"}"#, mark3, ""), status: 0,
      stderr: "warning: {dir}/t.loupe: line 2: mark: field 'seq' must be an integer (missing); skipped\n", stdoutContains: [mark3 + "\n"]),
    CommandCase(
      id: "trace.nul-bytes-in-a-line", arguments: ["show", "{dir}/t.loupe", "--format", "json"],
      files: [("t.loupe", Array((header + "\n" + started + "\n").utf8) + [0, 0, 0, 0x0A] + Array((mark3 + "\n").utf8))],
      status: 0, stderr: "warning: {dir}/t.loupe: line 3: Invalid JSON: Unexpected character '\\u{0}' at byte 0; skipped\n", stdoutContains: [started + "\n" + mark3 + "\n"]),
    CommandCase(
      id: "trace.crlf-line-ends", arguments: ["show", "{dir}/t.loupe", "--format", "json"],
      files: trace(header + "\r", started + "\r", mark + "\r", ""), status: 0, stderr: "",
      stdoutContains: [started + "\n" + mark + "\n"]),
    CommandCase(
      id: "trace.stats-of-a-foreign-file", arguments: ["stats", "{dir}/t.loupe"], files: trace("hello, world", ""), status: 3,
      stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: its first line is not JSON (Unexpected character 'h' at byte 1).\n"),
    CommandCase(
      id: "trace.replay-of-an-empty-file", arguments: ["replay", "{dir}/t.loupe"], files: trace(""), status: 3,
      stderr: "Error: '{dir}/t.loupe' is not a Loupe trace: the file is empty.\n"),
  ]

  /// Bad command lines: status 2 and the usage error, or status 3 when what they name
  /// cannot be used; nothing is launched or written.
  static let commandLines: [CommandCase] = [
    CommandCase(id: "cli.no-program", arguments: ["attach"], status: 2,
      stderr: usage("Missing the program to run: '-- COMMAND [ARG...]' (or '--socket PATH')", attachUsage, "attach")),
    CommandCase(id: "cli.socket-and-program", arguments: ["attach", "--socket", "{dir}/s", "--", "true"], status: 2,
      stderr: usage("Give either '--socket PATH' or a command to run, not both", attachUsage, "attach")),
    CommandCase(id: "cli.bad-format", arguments: ["attach", "--format", "yaml", "--", "true"], status: 2,
      stderr: usage("Invalid value 'yaml' for '--format': expected text, json or changes", attachUsage, "attach")),
    CommandCase(id: "cli.option-without-value", arguments: ["show", "{dir}/t.loupe", "--kind"], status: 2,
      stderr: usage("Missing value for '--kind GLOB[,GLOB...]'", showUsage, "show")),
    CommandCase(id: "cli.record-without-file", arguments: ["record"], status: 2,
      stderr: usage("Missing expected argument 'FILE'", recordUsage, "record")),
    CommandCase(id: "cli.record-without-program", arguments: ["record", "{dir}/t.loupe"], status: 2,
      stderr: usage("Missing the program to run: '-- COMMAND [ARG...]' (or '--socket PATH')", recordUsage, "record")),
    CommandCase(id: "cli.stdio-with-filter", arguments: ["attach", "--stdio", "--kind", "mark", "--", "true"], status: 2,
      stderr: usage("Filters do not apply to '--stdio': the editor sets its own in 'loupe/subscribe'", attachUsage, "attach")),
    CommandCase(id: "cli.unknown-command", arguments: ["attahc"], status: 2,
      stderr: "Error: Unknown command 'attahc'. Did you mean 'attach'?\nUsage: loupe <subcommand>\nSee 'loupe --help'.\n"),
    CommandCase(id: "cli.program-not-found", arguments: ["attach", "--", "{dir}/no-such-program"], status: 3,
      stderr: "Error: Cannot launch '{dir}/no-such-program': No such file or directory\n"),
    CommandCase(id: "cli.program-without-loupe", arguments: ["attach", "--", "/bin/sh", "-c", "echo hello; exec sleep 30"], status: 3,
      stderr:
        "Error: '/bin/sh' does not speak the Loupe protocol: its output is not LSP-framed JSON-RPC (Malformed header: byte 0xa in a header name). Is it built with Loupe?\n"),
    CommandCase(id: "cli.program-exits-at-once", arguments: ["attach", "--", "/bin/true"], status: 3,
      stderr:
        "Error: '/bin/true' exited with status 0 before it answered 'initialize'. Is it built with Loupe, and does it create a store?\n"),
    CommandCase(id: "cli.socket-missing", arguments: ["attach", "--socket", "{dir}/none.sock"], status: 3,
      stderr: "Error: Cannot connect to '{dir}/none.sock': connect '{dir}/none.sock': No such file or directory\n"),
    CommandCase(id: "cli.socket-is-a-file", arguments: ["attach", "--socket", "{dir}/t.loupe"], files: trace(header), status: 3,
      stderr: "Error: Cannot connect to '{dir}/t.loupe': connect '{dir}/t.loupe': Connection refused\n"),
    CommandCase(id: "cli.record-into-missing-directory", arguments: ["record", "{dir}/no/t.loupe", "--", "loupe-examples", "probe"],
      status: 3, stderr: "Error: Cannot write the recording to '{dir}/no/t.loupe': No such file or directory.\n"),
    CommandCase(id: "cli.export-into-missing-directory", arguments: ["export", "{dir}/t.loupe", "--chrome-trace", "{dir}/no/out.json"],
      files: trace(header, started, ""), status: 3, stderr: "Error: Cannot open '{dir}/no/out.json' for writing: No such file or directory.\n"),
  ]

  /// A program (`loupe-examples probe --burst 3`) started with unusable `LOUPE…` settings:
  /// one `loupe: …` line on its stderr, and it runs to the end with status 0.
  static let environments: [CommandCase] = [
    CommandCase(id: "env.loupe-unknown-mode", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE": "udp:127.0.0.1:9000"], status: 0,
      stderr: "loupe: ignoring LOUPE=udp:127.0.0.1:9000 (expected off, stdio, unix:PATH or tcp:HOST:PORT)\n"),
    CommandCase(id: "env.loupe-tcp-without-address", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE": "tcp:"], status: 0, stderr: "loupe: ignoring LOUPE=tcp: (expected off, stdio, unix:PATH or tcp:HOST:PORT)\n"),
    CommandCase(id: "env.loupe-tcp-not-loopback", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE": "tcp:0.0.0.0:9000"], status: 0,
      stderr: "loupe: LOUPE: refusing to listen on '0.0.0.0': only loopback hosts (127.0.0.1, ::1, localhost) are allowed; "
        + "reach a device or another machine through a tunnel (iproxy, ssh -L) (not listening; the program runs on)\n"),
    CommandCase(id: "env.socket-in-missing-directory", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE": "unix:{dir}/no/s.sock"], status: 0,
      stderr: "loupe: LOUPE: Cannot listen on '{dir}/no/s.sock': stat '{dir}/no': No such file or directory\n"),
    CommandCase(id: "env.socket-path-too-long", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE": "unix:{dir}/" + String(repeating: "s", count: 120)], status: 0,
      stderr: "loupe: LOUPE: Cannot listen on '{dir}/" + String(repeating: "s", count: 120)
        + "': Socket path '{dir}/" + String(repeating: "s", count: 120) + "' is too long: a Unix socket path may have at most 107 bytes here (103 on Darwin, 107 on Linux); use a shorter one, such as /tmp/NAME.loupe\n"),
    CommandCase(id: "env.record-into-missing-directory", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE_RECORD": "{dir}/no/t.loupe"], status: 0,
      stderr: "loupe: LOUPE_RECORD: Cannot record to '{dir}/no/t.loupe': Cannot open '{dir}/no/t.loupe': No such file or directory.\n"),
    CommandCase(id: "env.record-to-a-directory", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE_RECORD": "{dir}"], status: 0,
      stderr: "loupe: LOUPE_RECORD: Cannot record to '{dir}': Cannot open '{dir}': Is a directory.\n"),
    CommandCase(id: "env.redact-odd-globs", executable: "loupe-examples", arguments: ["probe", "--burst", "3"],
      environment: ["LOUPE_REDACT": ",,[\\,*[,??,\\"], status: 0, stderr: ""),
  ]
}
