import Foundation
import LoupeCore
import LoupeSession

/// One MCP session's ``SessionModel`` — the model `show`, `replay` and `dap` read too — behind
/// a lock: a live session's events are appended on its client's reader thread while tools
/// read it.
final class SharedModel: @unchecked Sendable {
  // Unchecked: `model` is only touched while `lock` is held.
  private let lock = NSLock()
  private let model: SessionModel
  private var analyses = SessionAnalyses()

  init(_ model: SessionModel) {
    self.model = model
  }

  /// Reads the trace at `path` into a model (one pass; the events stay in the file).
  static func indexing(_ path: String) throws(ToolFailure) -> SharedModel {
    do {
      return SharedModel(try SessionModel(tracePath: path))
    } catch {
      switch error {
      case .notATrace, .unsupportedVersion, .truncatedHeader:
        throw ToolFailure("not-a-trace", error.description)
      default:
        throw ToolFailure("io-error", error.description)
      }
    }
  }

  func read<T>(_ body: (SessionModel) throws(ToolFailure) -> T) throws(ToolFailure) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(model)
  }

  /// The doctor's findings so far (see ``SessionAnalyses``).
  func doctor() -> Doctor {
    lock.lock()
    defer { lock.unlock() }
    return analyses.doctor(over: model)
  }

  /// The statistics so far (see ``SessionAnalyses``).
  func statistics() -> TraceStatistics {
    lock.lock()
    defer { lock.unlock() }
    return analyses.statistics(over: model)
  }

  /// The header of a session read from a trace file, and what its reading skipped.
  var trace: (header: TraceHeader?, damage: DamageNotes) {
    lock.lock()
    defer { lock.unlock() }
    return (model.header, DamageNotes(model.damage))
  }

  /// Adds live events, each with where the session's recording has its line.
  func append(_ items: [LiveEventFeed.Item]) {
    guard !items.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    model.append(items)
  }
}

extension SessionModel {
  /// The position right after which to answer for `at` (a seq; `nil`: the newest event): the
  /// last event whose seq is at most `at`.
  func position(at seq: Int?, session: String) throws(ToolFailure) -> Int {
    guard count > 0 else {
      throw ToolFailure("no-events", "Session \(session) has no events yet (the program has not created a store). Ask again in a moment.")
    }
    guard let seq else { return count - 1 }
    let position = firstIndex(atOrAfterSeq: seq + 1) - 1
    guard position >= 0 else {
      throw ToolFailure("no-such-event", "Session \(session) begins at #\(self.seq(at: 0)): there is nothing at #\(seq) yet.")
    }
    return position
  }

  /// The newest event's seq, if any.
  var lastSeq: Int? { count > 0 ? seq(at: count - 1) : nil }
}
