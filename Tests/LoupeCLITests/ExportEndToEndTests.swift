import Foundation
import Testing

/// The built `loupe export` with the OpenTelemetry and Perfetto outputs: exact output, several
/// traces at once, usage errors. (Delivery over HTTP is checked against a real receiver by
/// .ci/checks/55-export.sh.)
@Suite struct ExportEndToEndTests {
  let counter = Fixtures.path("counter.loupe")
  let pages = Fixtures.path("pages.loupe")

  @Test func otlpToStandardOutput() throws {
    let run = try BuiltProducts.run("loupe", ["export", counter, "--otlp", "-"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    Fixtures.expectGolden(run.stdout, "counter.otlp.jsonl")
  }

  @Test func everyOutputAtOnceAndTheSameTwice() throws {
    let dir = TemporaryDirectory()
    func export() throws -> [Data] {
      let run = try BuiltProducts.run(
        "loupe", ["export", counter, pages, "--otlp", dir.file("a.jsonl"), "--perfetto", dir.file("a.pftrace")])
      #expect(run.status == 0, "\(run.stderr)")
      return try ["a.jsonl", "a.pftrace"].map { try Data(contentsOf: URL(fileURLWithPath: dir.file($0))) }
    }
    let first = try export()
    #expect(first == (try export()))
    let lines = String(decoding: first[0], as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 2)  // one request per run: both are small
    #expect(lines[0].contains(#""key":"service.name","value":{"stringValue":"Counter"}"#))
    #expect(lines[1].contains(#""key":"service.name","value":{"stringValue":"PagesDemo"}"#))
    #expect(first[1].count > 1000)
    #expect(Array(first[1].prefix(2)) == [0x0A, 0x04])  // Trace.packet: the sequence's first packet
  }

  /// Seed 000: each effect cancelled by another page's action links to that action's span.
  @Test func seed000CancellationsLinkTheCancellingActionAcrossStores() throws {
    let seed000 = Fixtures.path("../../LoupeTestingTests/Fixtures/pages-shared-cancellation.loupe")
    let run = try BuiltProducts.run("loupe", ["export", seed000, "--otlp", "-"])
    #expect(run.status == 0)
    func attributes(_ owner: [String: Any]) -> [String: String] {
      var out: [String: String] = [:]
      for attribute in owner["attributes"] as? [[String: Any]] ?? [] {
        let value = attribute["value"] as! [String: Any]
        out[attribute["key"] as! String] = (value["stringValue"] ?? value["intValue"]).map { "\($0)" }
      }
      return out
    }
    var spans: [String: [String: Any]] = [:]
    for line in run.stdout.split(separator: "\n") {
      let request = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for resource in request["resourceSpans"] as! [[String: Any]] {
        for scope in resource["scopeSpans"] as! [[String: Any]] {
          for span in scope["spans"] as! [[String: Any]] { spans[span["spanId"] as! String] = span }
        }
      }
    }
    var acrossStores = 0
    for effect in spans.values where (effect["name"] as! String).hasPrefix("effect ") {
      guard let link = (effect["links"] as? [[String: Any]])?.first(where: { attributes($0)["loupe.link"] == "cancelled_by" }) else { continue }
      let action = try #require(spans[link["spanId"] as! String], "the cancelling action's span is exported")
      #expect(attributes(action)["loupe.seq"] == attributes(link)["loupe.cause"])
      #expect(attributes(action)["loupe.store"] == attributes(link)["loupe.store"])
      if attributes(action)["loupe.store"] != attributes(effect)["loupe.store"] { acrossStores += 1 }
    }
    #expect(acrossStores == 11)  // doctor: "This happened 11 times in all."
  }

  @Test func usageErrors() throws {
    let cases: [([String], String)] = [
      (["export", counter], "Error: Missing an output: '--otlp OUT', '--otlp-endpoint URL', '--perfetto OUT' or '--chrome-trace OUT'"),
      (["export", counter, pages, "--chrome-trace", "x.json"], "Error: '--chrome-trace' converts one trace; use '--perfetto' or '--otlp' for several"),
      (["export", counter, "--otlp-endpoint", "localhost:4318"], "Error: '--otlp-endpoint' needs an http:// or https:// URL, not 'localhost:4318'"),
      (["export", counter, "--perfetto", "-"], "Error: '--perfetto' writes binary: give it a file, not '-'"),
      (["export", counter, "--otlp", "-", "--chrome-trace", "-"], "Error: Only one output can go to standard output ('-')"),
    ]
    for (arguments, message) in cases {
      let run = try BuiltProducts.run("loupe", arguments)
      #expect(run.status == 2)
      #expect(run.stderr.hasPrefix(message + "\nUsage: loupe export TRACE... "), "\(run.stderr)")
    }
  }

  @Test func aMissingTraceOrUnwritableOutputIsAnIOError() throws {
    let missing = try BuiltProducts.run("loupe", ["export", "/nonexistent.loupe", "--otlp", "-"])
    #expect(missing.status == 3)
    let unwritable = try BuiltProducts.run("loupe", ["export", counter, "--perfetto", "/nonexistent-dir/x.pftrace"])
    #expect(unwritable.status == 3)
    #expect(unwritable.stderr == "Error: Cannot open '/nonexistent-dir/x.pftrace' for writing: No such file or directory.\n")
  }
}
