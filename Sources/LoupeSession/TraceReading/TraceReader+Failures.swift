import LoupeCore

extension TraceReader {
  /// Opens the trace at `path` (`-` is standard input), its errors as a ``CommandFailure``.
  package static func opening(_ path: String) throws(CommandFailure) -> TraceReader {
    do {
      if path == "-" { return try TraceReader(fileDescriptor: 0, name: "<stdin>") }
      return try TraceReader(path: path)
    } catch {
      throw CommandFailure(error.description)
    }
  }

  /// Reads the next item, its read errors as a ``CommandFailure``.
  package func nextItem(filter: EventFilter = .all, decode: Bool = true, kindText: Bool = true) throws(CommandFailure)
    -> TraceReader.Item?
  {
    do {
      return try next(filter: filter, decode: decode, kindText: kindText)
    } catch {
      throw CommandFailure(error.description)
    }
  }
}

/// Where a long pass over a trace reports how far it got (the CLI draws it on a terminal).
package protocol ReadProgress: AnyObject {
  /// `done` bytes of the input have been read.
  func update(_ done: Int)
}
