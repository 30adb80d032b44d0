import Testing
import TestSupport
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

/// `TimelineHeader.append` against the composition it replaces, on edge and random values,
/// with colour on and off: the timeline's first column must stay byte-identical.
@Suite struct TimelineHeaderTests {
  static func reference(time: Double, seq: Int, style: Style) -> String {
    style.dim(Formatting.leftPad(Formatting.time(time), 12) + " " + Formatting.leftPad("#\(seq)", 7))
  }

  static func fast(time: Double, seq: Int, style: Style) -> String {
    var text = "prefix"
    TimelineHeader.append(time: time, seq: seq, style: style, to: &text)
    return String(text.dropFirst(6))
  }

  @Test(arguments: [false, true]) func edgeValuesMatchTheReference(colour: Bool) {
    let style = Style(enabled: colour)
    let times: [Double] = [
      0, -0.0, 0.0004, 0.0005, 0.0015, -0.0005, -0.0004, 0.001, 0.01, 0.1, 1, 1.75, 9.9995, 99.999, 1234.5,
      -1234.5, 99_999.999, 999_999.999, 1_000_000, 12_345_678.9, 1e12, -1e12, 1e15,
      // Past what a count of microseconds holds (a hostile trace's `"time":1e300`).
      8.999e12, 9e12, -9e12, 1e13, 1e300, -1e300, .greatestFiniteMagnitude,
    ]
    let seqs = [0, 1, 9, 10, 99_999, 999_999, 1_000_000, 123_456_789, -1, -99_999, -100_000, Int.max, Int.min]
    for time in times {
      for seq in seqs {
        #expect(Self.fast(time: time, seq: seq, style: style) == Self.reference(time: time, seq: seq, style: style),
                "time \(time), seq \(seq), colour \(colour)")
      }
    }
  }

  @Test func randomValuesMatchTheReference() {
    var random = SplitMix64(seed: 18)
    for index in 0..<20_000 {
      let style = Style(enabled: index % 2 == 0)
      let magnitude = [1.0, 1000, 1e6, 1e9, 1e13][Int.random(in: 0..<5, using: &random)]
      let time = Double.random(in: -magnitude...magnitude, using: &random)
      let seqLimit = [10, 100_000, 10_000_000, Int.max][Int.random(in: 0..<4, using: &random)]
      let seq = Int.random(in: -seqLimit...seqLimit, using: &random)
      #expect(Self.fast(time: time, seq: seq, style: style) == Self.reference(time: time, seq: seq, style: style),
              "time \(time), seq \(seq)")
    }
  }
}

