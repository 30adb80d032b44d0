import Foundation
import LoupeCore

extension DependencyValues {
  /// The clock: a store's clock is this value (`Store(…, clock:)` sets it; `send.clock` is
  /// the same clock). Live: `ContinuousClock`. Under `TestStore`: its ``TestClock``.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  /// The current date. Live: `Date()`. No test value: set one (`.constant(_:)`) in tests.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }

  /// The clock under TCA's name: the same as ``clock`` (a `TestStore`'s ``TestClock``).
  public var continuousClock: any Clock<Duration> {
    get { clock }
    set { clock = newValue }
  }

  /// The clock under TCA's other name: the same as ``clock``.
  public var suspendingClock: any Clock<Duration> {
    get { clock }
    set { clock = newValue }
  }

  /// New UUIDs. Live: `UUID()`. Under test: ``UUIDGenerator/incrementing``, counting up
  /// from `00000000-0000-0000-0000-000000000000` in each store.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

enum ClockKey: DependencyKey {
  static var liveValue: any Clock<Duration> { ContinuousClock() }
  /// `TestStore` always sets its clock; a plain store in the test context gets a fresh one.
  static var testValue: any Clock<Duration> { TestClock() }
}

enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
}

enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator { UUID() }
  static var testValue: UUIDGenerator { .incrementing }
}

/// Makes the current date: `date()` or `date.now`; in tests `$0.date.now = someDate` fixes it.
public struct DateGenerator: Sendable {
  private var generate: @Sendable () -> Date

  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

  /// Always `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }

  /// The current date. Setting it makes the generator return that date from then on.
  public var now: Date {
    get { generate() }
    set { generate = { newValue } }
  }

  public func callAsFunction() -> Date { generate() }
}

/// Makes UUIDs: `uuid()`.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  public func callAsFunction() -> UUID { generate() }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// `00000000-0000-0000-0000-000000000000`, then `…0001`, `…0002`, … (a new sequence for
  /// every generator made).
  public static var incrementing: Self {
    let next = Lock<UInt64>(0)
    return Self {
      let value = next.withLock { value in
        defer { value += 1 }
        return value
      }
      let hex = String(value, radix: 16, uppercase: true)
      let tail = String(repeating: "0", count: 12 - min(12, hex.count)) + hex
      return UUID(uuidString: "00000000-0000-0000-0000-\(tail)")!
    }
  }
}

extension UUID {
  /// `UUID(0)` is `00000000-0000-0000-0000-000000000000`, `UUID(1)` `…0001`: what
  /// ``UUIDGenerator/incrementing`` makes, for expected states in tests (as in TCA).
  public init(_ intValue: Int) {
    let hex = String(UInt64(truncatingIfNeeded: intValue), radix: 16, uppercase: true)
    let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex.suffix(12)
    self.init(uuidString: "00000000-0000-0000-0000-\(tail)")!
  }
}
