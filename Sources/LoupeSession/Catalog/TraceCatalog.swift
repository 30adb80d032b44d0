import LoupeCore

/// What `replay` learns from one pass over a trace: the stores alive at its end (for
/// `loupe/stores`) and its last `seq` (marks added during a replay follow it).
///
/// Opening reads only the header (so a file that is not a trace is refused at once); the pass
/// over the events is made the first time one of its answers is asked for, on the thread that
/// asks. A client that only subscribes — the common case, and the one that must stream at the
/// speed of the disk — never waits for it, and the file is read once instead of twice.
package final class TraceCatalog: Sendable {
  package struct Contents: Sendable, Equatable {
    package var events = 0
    package var lastSeq = 0
    /// The `time` of the last event (marks added during a replay come at it).
    package var lastTime = 0.0
    /// Stores alive at the end of the trace, in order of creation (parents before children).
    package var stores: [StoreInfo] = []
    /// The version of the file the pass read, and how far its lines were all events (no
    /// malformed line; a cut-short last line is after it): a later reader of the same version
    /// need not check them again (``TraceReader/trustLines(before:)``).
    package var identity: TraceReader.FileIdentity?
    package var checkedLength = 0
  }

  package let path: String
  package let header: TraceHeader
  private let contents = Lock<Contents?>(nil)

  package init(path: String) throws(CommandFailure) {
    self.path = path
    header = try TraceReader.opening(path).header
  }

  package var events: Int { read().events }
  package var lastSeq: Int { read().lastSeq }
  package var lastTime: Double { read().lastTime }
  package var stores: [StoreInfo] { read().stores }

  /// Lets `reader` skip checking the lines the catalog's pass already checked, when that pass
  /// has been made, found no malformed line, and read the same version of the file.
  package func shareChecks(with reader: TraceReader) {
    guard let contents = contents.withLock({ $0 }), let identity = contents.identity, identity == reader.fileIdentity else { return }
    reader.trustLines(before: contents.checkedLength)
  }

  private func read() -> Contents {
    contents.withLock { contents in
      if let contents { return contents }
      let read = Self.pass(path)
      contents = read
      return read
    }
  }
}
