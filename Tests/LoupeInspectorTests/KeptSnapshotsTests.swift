import Testing
import TestSupport
@testable import Loupe

/// `KeptSnapshots` against a plain model of what it keeps: per root, the latest snapshot and
/// the changes since (of the root and its scoped stores), dropped once they pass the byte
/// limit; through roots appearing and going in between, which move the others' places.
@Suite struct KeptSnapshotsTests {
  private func snapshot(_ store: String, _ seq: Int) -> Event {
    Event(seq: seq, time: 0, payload: .stateSnapshot(StateSnapshot(store: store, cause: nil, state: .int(seq))))
  }

  private func changed(_ store: String, _ seq: Int) -> Event {
    let change = Change(path: "count", op: .replace, old: .int(seq - 1), new: .int(seq))
    return Event(seq: seq, time: 0, payload: .stateChanged(StateChanged(store: store, cause: seq, changes: [change], summary: "")))
  }

  @Test func whatIsKeptFollowsTheModel() {
    var state: UInt64 = 11
    func next() -> UInt64 {  // SplitMix64
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var kept = KeptSnapshots(byteLimit: 2_000)
    var model: [String: (snapshot: Int, changes: [Int], bytes: Int)] = [:]
    let roots = ["A#1", "B#2", "C#3", "D#4"]
    for seq in 1...3_000 {
      let root = roots[Int(next() % UInt64(roots.count))]
      let event: Event
      switch next() % 10 {
      case 0: event = snapshot(root, seq)
      case 1: event = Event(seq: seq, time: 0, payload: .storeDestroyed(StoreDestroyed(store: root, identity: "i")))
      case 2: event = changed(root + "/child", seq)
      default: event = changed(root, seq)
      }
      let size = event.approximateBytes
      _ = kept.note(event, at: seq, size: size)
      switch event.payload {
      case .stateSnapshot: model[root] = (seq, [], 0)
      case .storeDestroyed: model[root] = nil
      default:
        guard var entry = model[root] else { break }
        entry.changes.append(seq)
        entry.bytes += size
        model[root] = entry.bytes > 2_000 ? nil : entry
      }
      let actual = kept.roots.mapValues { ($0.snapshot.position, $0.changes.map(\.position)) }
      #expect(actual.count == model.count, "seq \(seq)")
      for (store, entry) in model {
        #expect(actual[store]?.0 == entry.snapshot && actual[store]?.1 == entry.changes, "seq \(seq) \(store)")
      }
      if actual.count != model.count { return }
    }
  }
}
