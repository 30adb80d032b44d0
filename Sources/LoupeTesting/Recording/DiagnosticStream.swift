import LoupeCore
import LoupeSession

/// A stream of diagnostic events to assert on: what a ``DiagnosticRecorder`` captured from
/// the stores of a test, or what a ``RecordedTrace`` read from a `.loupe` file.
///
/// The assertions are the same on both:
///
/// - ``expect(_:kinds:stores:exhaustivity:fileID:filePath:line:column:)`` — an ordered list
///   of ``EventExpectation``s against the events since the previous `expect`; exhaustive by
///   default, like TCA's `TestStore`;
/// - ready-made checks: ``assertNoEffectLeftRunning(fileID:filePath:line:column:)``,
///   ``assertEffectCancelled(cancelID:store:reason:by:fileID:filePath:line:column:)``,
///   ``assertEffectNotCancelled(cancelID:store:fileID:filePath:line:column:)``,
///   ``assertNoEffectCancelledByAnotherStore(fileID:filePath:line:column:)``,
///   ``assertDerived(_:store:recomputedAtMost:fileID:filePath:line:column:)``,
///   ``assertNoWastedRecomputation(_:store:fileID:filePath:line:column:)``,
///   ``assertIdentityUnchanged(_:fileID:filePath:line:column:)``,
///   ``assertIdentityChanged(_:reason:fileID:filePath:line:column:)``;
/// - ``assertMatchesGolden(_:kinds:record:fileID:filePath:line:column:)`` — the whole
///   stream against a `.loupe` fixture.
///
/// A failure is reported where the assertion was called, to Swift Testing (as an `Issue`)
/// or XCTest (as a test failure), whichever runs the test, with a −/+ diff of expected and
/// actual events.
///
/// Reading is thread-safe. A live recorder's events are there as soon as the store has
/// emitted them: await the store's work (`StoreTask.finish()`, `TestClock.advance(by:)`)
/// before asserting, never sleep.
public class DiagnosticStream: @unchecked Sendable {
  // Unchecked only because the class is not final: its one stored property is a Sendable
  // reference, and every mutable value lives behind that storage's lock.

  let storage: EventStorage

  init(events: [Event]) {
    storage = EventStorage(events: events)
  }

  /// Every event so far, in `seq` order, `session.started` included.
  public var events: [Event] { storage.state.withLock { $0.events } }

  /// Whether ``expect(_:kinds:stores:exhaustivity:fileID:filePath:line:column:)`` requires
  /// every event to be expected (`.on`, the default) or only checks that the expected ones
  /// happened in order (`.off`).
  public var exhaustivity: Exhaustivity {
    get { storage.state.withLock { $0.exhaustivity } }
    set { storage.state.withLock { $0.exhaustivity = newValue } }
  }

  /// The events that `expect` looks at (all kinds by default; `session.started` never).
  ///
  /// ```swift
  /// recorder.filter = EventFilter(kinds: [Glob("action.*"), Glob("effect.*")])
  /// ```
  public var filter: EventFilter {
    get { storage.state.withLock { $0.filter } }
    set { storage.state.withLock { $0.filter = newValue } }
  }

  /// Marks every event so far as accounted for: the next `expect` starts after them
  /// (TCA's `skipReceivedActions`).
  public func skipEvents() {
    storage.state.withLock { $0.cursor = $0.events.count }
  }

  /// The events as failure messages print them, one line each (`session.started` left out):
  /// handy to `print` while writing a test.
  public var timeline: String {
    events.filter { $0.kind != SessionStarted.kind }.map(EventText.line).joined(separator: "\n")
  }
}

/// The events of a stream and where `expect` has got to. It is the sink a recorder attaches
/// to its bus, so the bus does not keep the recorder alive.
final class EventStorage: EventSink {
  struct State {
    var events: [Event] = []
    /// Index in `events` of the first event the next `expect` looks at.
    var cursor = 0
    var exhaustivity = Exhaustivity.on
    var filter = EventFilter.all
  }

  let state: Lock<State>

  init(events: [Event]) {
    state = Lock(State(events: events))
  }

  func receive(_ event: Event) {
    state.withLock { $0.events.append(event) }
  }
}

/// How strictly ``DiagnosticStream/expect(_:kinds:stores:exhaustivity:fileID:filePath:line:column:)``
/// checks, as TCA's `TestStore.exhaustivity`.
public enum Exhaustivity: Sendable, Hashable {
  /// Every event the stream's filter lets through since the previous `expect` must be
  /// expected, in order, and nothing else may have happened.
  case on
  /// The expected events must have happened in this order; others in between are ignored.
  /// For a ``TestStore``: only the state changes a closure states are checked, received
  /// actions not asserted are skipped, and effects may still run at the end; with
  /// `showSkippedAssertions`, what was skipped is reported as a known issue (not a failure).
  case off(showSkippedAssertions: Bool)

  /// ``off(showSkippedAssertions:)`` without showing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
