import LoupeCore

/// Collects the answers to one batch and sends them together once every element is settled.
///
/// Each element fills its slot exactly once: with a response, or with `nil` for a
/// notification (never answered). When all slots are filled, `complete` gets the responses in
/// request order — an empty array when the batch held only notifications, which the caller
/// then does not answer at all (JSON-RPC 2.0 §6).
final class BatchReply: Sendable {
  private struct State {
    var slots: [Message?]
    var remaining: Int
  }

  private let state: Lock<State>
  private let complete: @Sendable ([Message]) -> Void

  init(count: Int, complete: @escaping @Sendable ([Message]) -> Void) {
    state = Lock(State(slots: Array(repeating: nil, count: count), remaining: count))
    self.complete = complete
  }

  func fill(_ index: Int, with message: Message?) {
    let done: [Message]? = state.withLock { state in
      guard state.remaining > 0 else { return nil }
      state.slots[index] = message
      state.remaining -= 1
      return state.remaining == 0 ? state.slots.compactMap { $0 } : nil
    }
    if let done { complete(done) }
  }
}
