/// The sessions `loupe mcp` has open, by id (`s1`, `s2`, …; ids are never reused, so a closed
/// session's id stays an error instead of reaching a newer session).
actor SessionRegistry {
  private var sessions: [String: MCPSession] = [:]
  private var closedIDs: Set<String> = []
  private var nextNumber = 1

  /// A fresh id for a session about to open.
  func reserveID() -> String {
    defer { nextNumber += 1 }
    return "s\(nextNumber)"
  }

  func add(_ session: MCPSession) {
    sessions[session.id] = session
  }

  /// The open session `id`, or a failure that says which are open.
  func session(_ id: String) throws(ToolFailure) -> MCPSession {
    if let session = sessions[id] { return session }
    let open = sessions.keys.sorted().joined(separator: ", ")
    let known = open.isEmpty ? "No session is open: open one with loupe_open." : "Open sessions: \(open)."
    if closedIDs.contains(id) { throw ToolFailure("no-such-session", "Session '\(id)' was closed. \(known)") }
    throw ToolFailure("no-such-session", "There is no session '\(id)'. \(known)")
  }

  var openSessions: [MCPSession] { sessions.values.sorted { $0.id.count == $1.id.count ? $0.id < $1.id : $0.id.count < $1.id.count } }

  /// Closes `id` and forgets it.
  func close(_ id: String) async throws(ToolFailure) -> MCPSession {
    let session = try session(id)
    sessions[id] = nil
    closedIDs.insert(id)
    await session.close()
    return session
  }

  /// Closes every session (the client left).
  func closeAll() async {
    let all = Array(sessions.values)
    for session in all {
      sessions[session.id] = nil
      closedIDs.insert(session.id)
    }
    await withTaskGroup(of: Void.self) { group in
      for session in all { group.addTask { await session.close() } }
    }
  }
}
