import Loupe
import Synchronization
import Testing

/// Counts how often diagnostics touch a value: reflection (rendering, labels) and `==` (diff).
final class TouchCounter: Sendable {
  let reflections = Atomic(0)
  let comparisons = Atomic(0)
  var total: Int { reflections.load(ordering: .relaxed) + comparisons.load(ordering: .relaxed) }
}

struct SpyState: Equatable, CustomReflectable {
  var value = 0
  let touches: TouchCounter

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.touches.comparisons.add(1, ordering: .relaxed)
    return lhs.value == rhs.value
  }

  var customMirror: Mirror {
    touches.reflections.add(1, ordering: .relaxed)
    return Mirror(self, children: ["value": value])
  }
}

struct SpyAction: CustomReflectable {
  var amount: Int
  var loads = false
  let touches: TouchCounter

  var customMirror: Mirror {
    touches.reflections.add(1, ordering: .relaxed)
    return Mirror(self, children: ["amount": amount])
  }
}

struct SpyFeature: Reducer {
  func reduce(into state: inout SpyState, action: SpyAction) -> Effect<SpyAction> {
    state.value += action.amount
    guard action.loads else { return .none }
    let touches = action.touches
    return .run { send in await send(SpyAction(amount: 1, touches: touches)) }
      .cancellable(id: "load", cancelInFlight: true)
  }
}

@MainActor
@Suite struct IdleTests {
  @Test func withNoSinkASendRendersAndDiffsNothing() async {
    let touches = TouchCounter()
    let bus = EventBus()
    let store = Store(initialState: SpyState(touches: touches), bus: bus) { SpyFeature() }
    let derived = store.derived("value", select: \.value) { $0 * 2 }
    for _ in 0..<100 {
      store.send(SpyAction(amount: 1, touches: touches))
    }
    await store.send(SpyAction(amount: 1, loads: true, touches: touches)).finish()
    #expect(store.value == 102)
    #expect(derived.value == 204)
    #expect(touches.total == 0)

    // The same send with a sink attached does touch the values: the counter works.
    let recorder = EventRecorder()
    bus.attach(recorder)
    store.send(SpyAction(amount: 1, touches: touches))
    #expect(touches.reflections.load(ordering: .relaxed) > 0)
    #expect(touches.comparisons.load(ordering: .relaxed) > 0)
    bus.detach(recorder)
  }
}
