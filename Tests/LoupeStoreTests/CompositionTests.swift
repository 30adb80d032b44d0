import Loupe
import Testing

/// A reducer whose body uses every builder form.
struct BuilderFeature: Reducer {
  struct State: Equatable {
    var log: [String] = []
    var counter = Counter.State()
  }
  enum Action: Equatable {
    case ping
    case counter(Counter.Action)
  }
  var verbose: Bool
  var extraSteps: Int
  var useA: Bool

  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.log.append("first")
      return .none
    }
    if verbose {
      Reduce { state, _ in
        state.log.append("verbose")
        return .none
      }
    }
    if useA {
      Reduce { state, _ in
        state.log.append("a")
        return .none
      }
    } else {
      Reduce { state, _ in
        state.log.append("b")
        return .none
      }
    }
    for step in 0..<extraSteps {
      Reduce { state, _ in
        state.log.append("step \(step)")
        return .none
      }
    }
    CombineReducers {
      EmptyReducer()
      Reduce(Scope(state: \.counter, action: Action.counter) { Counter() })
    }
  }
}

/// An optional child whose state is an enum: another case is another identity.
struct ModeFeature: Reducer {
  enum Mode: Equatable {
    case playing(speed: Int)
    case paused
  }
  struct State: Equatable {
    var mode: Mode?
  }
  enum Action: Equatable {
    case set(Mode?)
    case mode(ModeChild.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .set(let mode) = action { state.mode = mode }
      return .none
    }
    .ifLet(\.mode, action: Action.mode) { ModeChild() }
  }
}

struct ModeChild: Reducer {
  enum Action: Equatable { case faster }
  func reduce(into state: inout ModeFeature.Mode, action: Action) -> Effect<Action> {
    if case .playing(let speed) = state { state = .playing(speed: speed + 1) }
    return .none
  }
}

/// A child that returns an effect in the same action its parent dismisses it.
struct SelfClosingFeature: Reducer {
  struct State: Equatable {
    var child: Counter.State? = Counter.State()
  }
  enum Action: Equatable {
    case child(ChildAction)
  }
  enum ChildAction: Equatable { case closeTapped }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.child = nil
      return .none
    }
    .ifLet(\.child, action: Action.child) {
      Reduce<Counter.State, ChildAction> { _, _ in
        .run { _ in try await Task.sleep(for: .seconds(3600)) }
      }
    }
  }
}

@MainActor
@Suite struct CompositionTests {
  @Test func builderFormsRunInOrder() {
    let store = Store(initialState: BuilderFeature.State(), bus: EventBus()) {
      BuilderFeature(verbose: true, extraSteps: 2, useA: false)
    }
    store.send(.ping)
    #expect(store.log == ["first", "verbose", "b", "step 0", "step 1"])
    let quiet = Store(initialState: BuilderFeature.State(), bus: EventBus()) {
      BuilderFeature(verbose: false, extraSteps: 0, useA: true)
    }
    quiet.send(.ping)
    #expect(quiet.log == ["first", "a"])
  }

  @Test func childrenInsideCombineAndReduceWrappersAreStillStores() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: BuilderFeature.State(), bus: bus) {
      BuilderFeature(verbose: false, extraSteps: 0, useA: true)
    }
    store.send(.counter(.increment))
    #expect(store.counter.count == 1)
    #expect(recorder.lines.filter { $0.contains("BuilderFeature#1/counter") } == [
      "4 identity.changed BuilderFeature#1/counter i2 created",
      "5 store.created BuilderFeature#1/counter type=Counter parent=BuilderFeature#1 i2",
      "7 action.received BuilderFeature#1/counter Counter.Action.increment parent",
      "9 state.changed BuilderFeature#1/counter cause=7 [count: 0 → 1] \"BuilderFeature#1/counter: _count changed.\"",
    ])
  }

  @Test func anotherEnumCaseReplacesTheIdentity() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ModeFeature.State(), bus: bus) { ModeFeature() }
    _ = recorder.take()
    store.send(.set(.playing(speed: 1)))
    store.send(.mode(.faster))
    store.send(.set(.paused))
    #expect(recorder.take() == [
      "4 action.received ModeFeature#1 ModeFeature.Action.set send",
      "5 identity.changed ModeFeature#1/mode i2 presented",
      "6 store.created ModeFeature#1/mode type=ModeChild parent=ModeFeature#1 i2",
      "7 state.changed ModeFeature#1 cause=4 [+mode: {\"playing\":{\"speed\":1}}] \"ModeFeature#1: _mode changed.\"",
      "8 state.changed ModeFeature#1/mode cause=4 [+@: {\"playing\":{\"speed\":1}}] \"ModeFeature#1/mode: @self, @identity changed.\"",
      "9 action.received ModeFeature#1 ModeFeature.Action.mode send",
      "10 action.received ModeFeature#1/mode ModeChild.Action.faster parent",
      "11 state.changed ModeFeature#1/mode cause=10 [playing.speed: 1 → 2] \"ModeFeature#1/mode: _playing changed.\"",
      "12 action.received ModeFeature#1 ModeFeature.Action.set send",
      "13 identity.changed ModeFeature#1/mode i3 replaced previous=i2",
      "14 store.destroyed ModeFeature#1/mode i2",
      "15 store.created ModeFeature#1/mode type=ModeChild parent=ModeFeature#1 i3",
      "16 state.changed ModeFeature#1 cause=12 [mode: {\"playing\":{\"speed\":2}} → \"paused\"] \"ModeFeature#1: _mode changed.\"",
      "17 state.changed ModeFeature#1/mode cause=12 [@: {\"playing\":{\"speed\":2}} → \"paused\"] \"ModeFeature#1/mode: @self, @identity changed.\"",
    ])
  }

  @Test func anEffectFromAChildDismissedInTheSameActionNeverRuns() async {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: SelfClosingFeature.State(), bus: bus) { SelfClosingFeature() }
    _ = recorder.take()
    await store.send(.child(.closeTapped)).finish()
    #expect(recorder.take() == [
      "6 action.received SelfClosingFeature#1 SelfClosingFeature.Action.child send",
      "7 action.received SelfClosingFeature#1/child SelfClosingFeature.ChildAction.closeTapped parent",
      "8 identity.changed SelfClosingFeature#1/child i2 dismissed",
      "9 store.destroyed SelfClosingFeature#1/child i2",
      "10 state.changed SelfClosingFeature#1 cause=6 [-child: {\"count\":0,\"label\":\"count\"}] \"SelfClosingFeature#1: _child changed.\"",
      "11 effect.started SelfClosingFeature#1/child e1 cause=7",
      "12 effect.cancelled SelfClosingFeature#1/child e1 identityEnded by=-",
    ])
  }

  @Test func cancellingAConcatenationStopsItsLaterParts() async {
    let clock = TestClock()
    let (bus, recorder) = makeSession()
    let store = Store(initialState: EffectsFeature.State(), bus: bus, clock: clock) {
      Reduce<EffectsFeature.State, EffectsFeature.Action> { state, action in
        switch action {
        case .concatenated:
          return EffectsFeature().reduce(into: &state, action: action).cancellable(id: "chain")
        case .load:
          return .cancel(id: "chain")
        default:
          return EffectsFeature().reduce(into: &state, action: action)
        }
      }
    }
    _ = recorder.take()
    let chain = store.send(.concatenated)
    store.send(.load)
    await chain.finish()
    await clock.run()
    #expect(store.log == [])
    #expect(recorder.take() == [
      "4 action.received EffectsFeature#1 EffectsFeature.Action.concatenated send",
      "5 effect.started EffectsFeature#1 e1 cause=4 id=chain",
      "6 action.received EffectsFeature#1 EffectsFeature.Action.load send",
      "7 effect.cancelled EffectsFeature#1 e1 cancel id=chain by=EffectsFeature#1@6",
    ])
  }

  @Test func debounceOnAnExplicitClock() async {
    let storeClock = TestClock()
    let debounceClock = TestClock()
    let store = Store(initialState: EffectsFeature.State(), bus: EventBus(), clock: storeClock) {
      Reduce<EffectsFeature.State, EffectsFeature.Action> { state, action in
        if case .record(let entry) = action {
          state.log.append(entry)
          return .none
        }
        return .send(.record("late")).debounce(id: "d", for: .seconds(1), clock: debounceClock)
      }
    }
    let task = store.send(.load)
    // The effect sleeps on the debounce clock: the store's clock does not wait for it.
    await storeClock.advance(by: .seconds(5))
    await debounceClock.advance(by: .milliseconds(999))
    #expect(store.log == [])
    await debounceClock.advance(by: .milliseconds(1))
    await task.finish()
    #expect(store.log == ["late"])
  }

  @Test func actionsFromARunningEffectStartTasksOfTheirOwn() async {
    let clock = TestClock()
    let store = Store(initialState: TimerFeature.State(), bus: EventBus(), clock: clock) { TimerFeature() }
    let start = store.send(.start)
    await clock.advance(by: .seconds(3))
    #expect(!start.hasFinished)
    store.send(.stop)
    await start.finish()
    #expect(start.hasFinished)
    #expect(store.ticks == 3)
  }
}
