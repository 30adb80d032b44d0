import LoupeCore

/// Durations (or any non-negative values) for count, total and percentiles, in bounded
/// memory: exact up to ``exactLimit`` values, then a log-scale histogram with buckets 1%
/// apart, so percentiles stay within 1% on any number of values.
package struct Distribution: Sendable {
  static package let exactLimit = 10_000
  /// Buckets per doubling: 2^(1/70) ≈ 1.0100.
  private static let bucketsPerDoubling = 70.0

  package private(set) var count = 0
  package private(set) var total = 0.0
  package private(set) var maximum = 0.0
  private var values: [Double] = []
  private var buckets: [Int: Int]?

  mutating package func add(_ value: Double) {
    let value = max(0, value)
    count += 1
    total += value
    maximum = max(maximum, value)
    if buckets == nil {
      values.append(value)
      if values.count > Self.exactLimit {
        var histogram: [Int: Int] = [:]
        for value in values { histogram[Self.bucket(value), default: 0] += 1 }
        buckets = histogram
        values = []
      }
    } else {
      buckets![Self.bucket(value), default: 0] += 1
    }
  }

  private static func bucket(_ value: Double) -> Int {
    value <= 0 ? Int.min : Int((LibC.log2(value) * bucketsPerDoubling).rounded(.down))
  }

  private static func value(ofBucket bucket: Int) -> Double {
    bucket == Int.min ? 0 : LibC.exp2((Double(bucket) + 0.5) / bucketsPerDoubling)
  }

  /// The value at percentile `p` (0–100), by the nearest-rank method; `nil` when empty.
  package func percentile(_ p: Double) -> Double? {
    guard count > 0 else { return nil }
    let rank = max(1, Int((p / 100 * Double(count)).rounded(.up)))
    if let buckets {
      var seen = 0
      for bucket in buckets.keys.sorted() {
        seen += buckets[bucket]!
        if seen >= rank { return min(Self.value(ofBucket: bucket), maximum) }
      }
      return maximum
    }
    return values.sorted()[rank - 1]
  }
}
