import LoupeCore
import Testing
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

@Suite struct OutputTests {
  @Test func colourFollowsNoColorAndTerm() {
    #expect(Output.colorAllowed([:]))
    #expect(Output.colorAllowed(["NO_COLOR": ""]))  // set but empty does not count (no-color.org)
    #expect(!Output.colorAllowed(["NO_COLOR": "1"]))
    #expect(!Output.colorAllowed(["TERM": "dumb"]))
  }

  @Test func styleIsPlainWithoutColour() {
    #expect(Style(enabled: false).red("x") == "x")
    #expect(Style(enabled: true).red("x") == "\u{1B}[31mx\u{1B}[0m")
  }

  @Test func progressOnATerminal() {
    let terminal = Output(capturingWithColor: false, isTerminal: true)
    let progress = Progress(output: terminal, label: "Reading big.loupe…", total: 2_000_000, delay: .zero)
    for done in stride(from: 0, to: 1_000_000, by: 100) { progress.update(done) }
    progress.finish()
    let text = terminal.text
    #expect(text.hasPrefix("\rReading big.loupe… 5% (102.3 KB of 2.0 MB)\u{1B}[K"))
    #expect(text.hasSuffix("\r\u{1B}[K"))
  }

  @Test func noProgressWhenNotATerminal() {
    let piped = Output(capturingWithColor: false, isTerminal: false)
    let progress = Progress(output: piped, label: "Reading", total: 100, delay: .zero)
    for done in 0..<10_000 { progress.update(done) }
    progress.finish()
    #expect(piped.text == "")
  }

  @Test func formatting() {
    #expect(Progress.bytes(999) == "999 bytes")
    #expect(Progress.bytes(1_500_000) == "1.5 MB")
    #expect(Formatting.time(1234.5) == "1234.500ms")
    // Times and durations from a hostile trace are written, not trapped on.
    #expect(Formatting.time(1e300) == "1e+300ms")
    #expect(Formatting.time(-9e12) == "-9000000000000.0ms")
    #expect(Formatting.duration(milliseconds: 1e300) == "1e+297s")
    #expect(Formatting.duration(milliseconds: .infinity) == "infs")
    #expect(Formatting.duration(nanoseconds: 85) == "85ns")
    #expect(Formatting.duration(milliseconds: 0.0123) == "12.3µs")
    #expect(Formatting.duration(milliseconds: 499.54) == "499.5ms")
    #expect(Formatting.duration(milliseconds: 2100) == "2.10s")
    #expect(Formatting.count(1_234_567) == "1,234,567")
    #expect(Formatting.plural(1, "event") == "1 event")
    #expect(Formatting.plural(2, "effect was", "effects were") == "2 effects were")
  }

  @Test func distributionPercentiles() {
    var exact = Distribution()
    for value in 1...100 { exact.add(Double(value)) }
    #expect(exact.percentile(50) == 50)
    #expect(exact.percentile(95) == 95)
    #expect(exact.maximum == 100)
    var large = Distribution()
    for value in 1...50_000 { large.add(Double(value)) }
    let p95 = large.percentile(95)!
    #expect(abs(p95 - 47_500) / 47_500 < 0.01)  // within 1% once it is a histogram
    #expect(Distribution().percentile(50) == nil)
  }
}

@Suite struct ActionPayloadTests {
  func payload(_ label: String, _ value: JSON) -> String? {
    TimelineRenderer.payload(of: ActionReceived(store: "S#1", action: label, value: value, origin: .send))
  }

  @Test func casesRenderLikeSwift() {
    #expect(payload("ProbeFeature.Action.tick", "tick") == nil)
    #expect(payload("PageFeature.Action.selected", ["selected": true]) == "(true)")
    #expect(
      payload("AppFeature.Action.pages", ["pages": ["element": ["id": 2, "action": "timerTicked"]]])
        == #"({element: {id: 2, action: "timerTicked"}})"#)
    #expect(payload("Counter.Action", ["amount": 3]) == " {amount: 3}")
    #expect(payload("Counter.Action.reset", .null) == nil)
  }
}
