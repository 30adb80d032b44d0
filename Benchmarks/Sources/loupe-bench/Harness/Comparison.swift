import Foundation

/// One side of a comparison: runs its operation `n` times.
///
/// Each side loops by itself, so the harness adds one call per sample rather than one per
/// operation: a side whose operation takes nanoseconds is not drowned by the harness.
typealias Workload = (_ iterations: Int) -> Void

/// How long and how often to measure.
struct MeasurementPlan: Sendable {
  /// Paired samples (one of each side per repetition) after the warm-up.
  var repetitions: Int
  /// The least time one sample should take, so the clock's resolution does not matter.
  var sampleTime: Duration

  static let full = MeasurementPlan(repetitions: 11, sampleTime: .milliseconds(40))
  static let smoke = MeasurementPlan(repetitions: 3, sampleTime: .milliseconds(2))
}

/// The result of measuring two sides side by side.
struct Comparison {
  /// Median nanoseconds per operation, Loupe's side.
  var loupeNanoseconds: Double
  /// Median nanoseconds per operation, the compared side.
  var otherNanoseconds: Double
  /// Median of the per-repetition ratios loupe / other (< 1 means Loupe is faster).
  var ratio: Double
  /// Lowest and highest per-repetition ratio, to show the noise.
  var ratioRange: ClosedRange<Double>
  var repetitions: Int
  /// Instructions per operation counted by callgrind, when measured.
  var instructions: InstructionCounts?
}

enum Harness {
  /// Measures `loupe` and `other` interleaved: after a warm-up, every repetition times one
  /// sample of each, alternating which goes first (ABBA), so drift and load from other
  /// processes hit both sides alike. The ratio is the median of the per-repetition ratios.
  static func compare(plan: MeasurementPlan, loupe: Workload, other: Workload) -> Comparison {
    let loupeIterations = calibrate(loupe, sampleTime: plan.sampleTime)
    let otherIterations = calibrate(other, sampleTime: plan.sampleTime)
    var loupeTimes: [Double] = []
    var otherTimes: [Double] = []
    var ratios: [Double] = []
    for repetition in 0..<plan.repetitions {
      let a: Double
      let b: Double
      if repetition.isMultiple(of: 2) {
        a = sample(loupe, loupeIterations)
        b = sample(other, otherIterations)
      } else {
        b = sample(other, otherIterations)
        a = sample(loupe, loupeIterations)
      }
      loupeTimes.append(a)
      otherTimes.append(b)
      ratios.append(a / b)
    }
    return Comparison(
      loupeNanoseconds: median(loupeTimes), otherNanoseconds: median(otherTimes), ratio: median(ratios),
      ratioRange: ratios.min()!...ratios.max()!, repetitions: plan.repetitions)
  }

  /// Measures one side alone (for rows that report a time without a comparison).
  static func measure(plan: MeasurementPlan, _ work: Workload) -> Double {
    let iterations = calibrate(work, sampleTime: plan.sampleTime)
    return median((0..<plan.repetitions).map { _ in sample(work, iterations) })
  }

  /// Nanoseconds per operation of one sample of `iterations` operations.
  static func sample(_ work: Workload, _ iterations: Int) -> Double {
    let start = ContinuousClock.now
    work(iterations)
    let elapsed = ContinuousClock.now - start
    return nanoseconds(elapsed) / Double(iterations)
  }

  /// The number of operations that takes at least `sampleTime`, found by doubling (which also
  /// warms up caches, allocators and lazily initialised state).
  static func calibrate(_ work: Workload, sampleTime: Duration) -> Int {
    var iterations = 1
    let target = nanoseconds(sampleTime)
    while true {
      let start = ContinuousClock.now
      work(iterations)
      let elapsed = nanoseconds(ContinuousClock.now - start)
      if elapsed >= target || iterations >= 1 << 30 {
        // One more at the chosen size: the warm-up proper.
        let scaled = max(1, Int(Double(iterations) * target / max(elapsed, 1)))
        work(scaled)
        return scaled
      }
      iterations *= elapsed < target / 16 ? 8 : 2
    }
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }

  static func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
