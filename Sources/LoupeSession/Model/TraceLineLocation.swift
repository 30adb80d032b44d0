import LoupeCore

/// Where one event's line is in a trace file: its offset and its length without the line
/// break. A live session's model keeps this instead of the event (``SessionModel/init(growingTrace:)``),
/// and reads the line back with ``TraceLineFile/read(offset:length:)`` when asked.
public struct TraceLineLocation: Sendable, Equatable {
  public var offset: Int
  public var length: Int

  public init(offset: Int, length: Int) {
    self.offset = offset
    self.length = length
  }

  /// The locations of consecutive lines written from `start` on, given each line's length
  /// (without its line break).
  public static func consecutive(from start: Int, lengths: some Sequence<Int>) -> [TraceLineLocation] {
    var offset = start
    return lengths.map { length in
      defer { offset += length + 1 }
      return TraceLineLocation(offset: offset, length: length)
    }
  }
}

extension NotificationEventLines.Batch {
  /// Each line's location once the batch is written at `start` (what
  /// ``TraceWriter/append(_:)`` returns).
  public func locations(writtenAt start: Int) -> [TraceLineLocation] {
    var result: [TraceLineLocation] = []
    result.reserveCapacity(count)
    var lineStart = 0
    for (index, byte) in text.enumerated() where byte == 0x0A {
      result.append(TraceLineLocation(offset: start + lineStart, length: index - lineStart))
      lineStart = index + 1
    }
    return result
  }
}
