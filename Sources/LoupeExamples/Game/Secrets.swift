/// Where the guessing game's secret numbers come from: a pure function of the round, so a
/// scripted game (and its trace) is the same every time, like TCA's injected
/// `withRandomNumberGenerator` dependency with a seeded generator.
struct Secrets: Sendable {
  /// The secret of round `round`.
  let secret: @Sendable (_ round: Int) -> Int

  /// Secrets in `range`, the same sequence for the same `seed`.
  static func seeded(_ seed: UInt64, in range: ClosedRange<Int> = -5...5) -> Secrets {
    Secrets { round in
      // SplitMix64 of (seed, round): well spread, no state to share.
      var z = seed &+ UInt64(truncatingIfNeeded: round) &* 0x9E37_79B9_7F4A_7C15
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return range.lowerBound + Int(z % UInt64(range.count))
    }
  }
}
