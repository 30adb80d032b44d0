import Foundation
import LoupeCore

/// The catalog's pass over a trace: every line checked (so that the stream may trust them
/// after), the stores alive at the end, the last event.
///
/// A regular file of at least ``TraceCatalog/minimumSplitBytes`` is read as two halves on two
/// threads, split at a line start: checking a line needs nothing from the others, and the few
/// store events whose order matters are applied in order once both halves are done. On two
/// cores that about halves the time a `history: true` subscriber waits before the first event.
/// Anything unusual in either half — a malformed line, a read error — and the trace is read
/// again the plain way, which reports it.
extension TraceCatalog {
  /// Below this, one thread reads the whole trace.
  static package let minimumSplitBytes = 8 << 20

  static package func pass(_ path: String, minimumSplitBytes: Int = TraceCatalog.minimumSplitBytes) -> Contents {
    if let contents = splitPass(path, minimumSplitBytes: minimumSplitBytes) { return contents }
    return wholePass(path)
  }

  /// What one part of the trace held.
  package struct PartReading {
    package var events = 0
    /// The store events (created, destroyed, identity changed), in order.
    package var storeEvents: [Event] = []
    /// Where the last event's line starts, and how far the lines were all events.
    package var lastOffset: Int?
    package var checkedLength = 0
    package var malformed = false
    package var identity: TraceReader.FileIdentity?
  }

  /// Reads `reader`'s events until the end or the first line starting at or after `end`.
  static package func readPart(_ reader: TraceReader, end: Int = .max) throws(CommandFailure) -> PartReading {
    var part = PartReading()
    while let item = try reader.nextItem(decode: false) {
      if item.offset >= end { break }
      part.events += 1
      part.checkedLength = reader.bytesRead
      part.lastOffset = item.offset
      switch item.kind {
      case StoreCreated.kind, StoreDestroyed.kind, IdentityChanged.kind:
        if let event = try? Event(jsonText: item.bytes) { part.storeEvents.append(event) }
      default:
        continue
      }
    }
    part.malformed = reader.malformedLineCount > 0
    part.identity = reader.fileIdentity
    return part
  }

  private static func wholePass(_ path: String) -> Contents {
    guard let reader = try? TraceReader.opening(path) else { return Contents() }
    let part: PartReading
    do {
      part = try readPart(reader)
    } catch {
      // The file changed or could not be read after it opened: answer with what was read
      // (the subscription's own pass reports the error to the user).
      return Contents()
    }
    return contents(path, parts: [part])
  }

  static package func splitPass(_ path: String, minimumSplitBytes: Int) -> Contents? {
    guard let file = try? TraceLineFile(path: path), let size = file.size, size >= max(minimumSplitBytes, 1),
      let middle = file.lineStart(atOrAfter: size / 2, before: size)
    else { return nil }
    let parts = Lock<[PartReading?]>([nil, nil])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      // Each half opens the file for itself (a reader belongs to one thread).
      guard let reader = try? TraceReader.opening(path), index == 0 || reader.seek(toOffset: middle, linesBefore: 0) else { return }
      let part = try? readPart(reader, end: index == 0 ? middle : .max)
      parts.withLock { $0[index] = part }
    }
    let read = parts.withLock { $0 }
    guard let head = read[0], let tail = read[1], !head.malformed, !tail.malformed, head.events > 0,
      head.identity == tail.identity  // the same version of the file
    else { return nil }
    return contents(path, parts: [head, tail])
  }

  /// The catalog's answers from the parts of the trace, in order.
  private static func contents(_ path: String, parts: [PartReading]) -> Contents {
    var contents = Contents()
    // Moments are counted in store events: only their order matters here.
    var lifetimes = StoreLifetimes()
    var moment = 0
    for part in parts {
      contents.events += part.events
      if part.events > 0 { contents.checkedLength = part.checkedLength }
      for event in part.storeEvents {
        moment += 1
        lifetimes.apply(event, at: moment)
      }
    }
    if parts.allSatisfy({ !$0.malformed }) { contents.identity = parts.last?.identity }
    contents.stores = lifetimes.stores(at: moment)
    if let offset = parts.last(where: { $0.lastOffset != nil })?.lastOffset,
      let event = try? Event(jsonText: (try? TraceLineFile(path: path))?.line(at: offset) ?? [])
    {
      contents.lastSeq = event.seq
      contents.lastTime = event.time
    }
    return contents
  }
}
