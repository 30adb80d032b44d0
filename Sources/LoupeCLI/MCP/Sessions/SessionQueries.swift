import LoupeCore

/// Questions about a session's trace that the tools share.
///
/// NOT FINISHED: until the shared session model of issue 13 (events indexed by seq, store and
/// cause; state rebuilt at any seq) is on main, these read the trace from its start each time
/// (one streaming pass, memory flat) with the readers `replay` uses (``TraceCatalog``,
/// ``StateReconstruction``). When it lands they become lookups in it.
enum SessionQueries {
  /// The stores alive right after `until` (default: the end), and the trace's last seq.
  static func catalog(_ session: MCPSession, until: Int?) throws(ToolFailure) -> TraceCatalog {
    _ = try SessionArgument.reader(session)  // a clear error for a live session with no events yet
    do {
      return try TraceCatalog(path: session.tracePath, until: until)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
  }
}

extension SessionQueries {
  /// The value at `path` in `store` right after event `at`.
  ///
  /// NOT FINISHED: a trace without state snapshots (CONTRACT §10, issue 13) holds changes, not
  /// whole states, so until the shared rebuilder lands this knows only the values that changes
  /// wrote (as `loupe replay` does), and says so for the rest.
  static func value(_ session: MCPSession, store: String, path: StatePath, at: Int) throws(ToolFailure) -> JSON {
    let result: Result<JSON, StateReconstruction.Failure>
    do {
      result = try StateReconstruction.value(of: store, at: path, in: session.tracePath, until: at)
    } catch {
      throw ToolFailure("io-error", error.message)
    }
    switch result {
    case .success(let value):
      return value
    case .failure(.noValue):
      throw ToolFailure("no-such-path", "\(store) has no value at '\(path)' right after #\(at) (it was removed, or the container does not have it).")
    case .failure(.notRecorded):
      let what = path.isRoot ? "the whole state of \(store)" : "'\(path)' of \(store)"
      throw ToolFailure(
        "not-recorded",
        "This trace does not hold \(what) at #\(at): it records changes, not whole states. Ask for a path that an action changed (loupe_timeline with kinds [\"state.changed\"] and stores [\"\(store)\"] lists them).")
    }
  }
}
