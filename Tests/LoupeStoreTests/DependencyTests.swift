import Foundation
import Loupe
import Testing

struct GreetingClient: Sendable {
  var greet: @Sendable (String) async -> String
}

enum GreetingClientKey: DependencyKey {
  static let liveValue = GreetingClient { "Hello, \($0)" }
}

extension DependencyValues {
  var greeting: GreetingClient {
    get { self[GreetingClientKey.self] }
    set { self[GreetingClientKey.self] = newValue }
  }
}

/// A child feature whose effect uses a dependency.
struct GreeterFeature: Reducer {
  struct State: Equatable { var text = "" ; var id: UUID? = nil }
  enum Action: Equatable { case greet(String), greeted(String), makeID }
  @Dependency(\.greeting) var greeting
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .greet(let name):
      return .run { send in await send(.greeted(await greeting.greet(name))) }
    case .greeted(let text):
      state.text = text
      return .none
    case .makeID:
      state.id = uuid()
      return .none
    }
  }
}

struct GreeterParent: Reducer {
  struct State: Equatable { var greeter = GreeterFeature.State() }
  enum Action: Equatable { case greeter(GreeterFeature.Action) }

  var body: some Reducer<State, Action> {
    Scope(state: \.greeter, action: Action.greeter) { GreeterFeature() }
  }
}

/// Dependencies (CONTRACT §13): stores take them where they are made, effects keep their
/// store's, scoped children share their root's.
@MainActor
@Suite struct DependencyTests {
  @Test func anOverrideReachesAnEffectOfAScopedChild() async {
    let store = Store(initialState: GreeterParent.State(), bus: EventBus()) {
      GreeterParent()
    } withDependencies: {
      $0.greeting = GreetingClient { "Hi, \($0)" }
    }
    let child = store.scope(state: \.greeter, action: GreeterParent.Action.greeter)
    await child.send(.greet("Ada")).finish()
    #expect(store.greeter.text == "Hi, Ada")
  }

  @Test func withoutAnOverrideTheLiveValueIsUsed() async {
    let store = Store(initialState: GreeterFeature.State(), bus: EventBus()) { GreeterFeature() }
    await store.send(.greet("Ada")).finish()
    #expect(store.text == "Hello, Ada")
  }

  @Test func storesMadeInsideWithDependenciesTakeThem() async {
    let store = withDependencies { $0.greeting = GreetingClient { "Hey, \($0)" } } operation: {
      Store(initialState: GreeterFeature.State(), bus: EventBus()) { GreeterFeature() }
    }
    await store.send(.greet("Ada")).finish()
    #expect(store.text == "Hey, Ada")
  }

  @Test func incrementingUUIDsCountUpPerStore() {
    let store = Store(initialState: GreeterFeature.State(), bus: EventBus()) {
      GreeterFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.makeID)
    #expect(store.id == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    store.send(.makeID)
    #expect(store.id == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
  }

  @Test func theStoresClockIsTheClockDependency() {
    let clock = TestClock()
    let values = withDependencies { $0.clock = clock } operation: { DependencyValues.current }
    #expect(values.clock as? TestClock === clock)
    let date = DateGenerator.constant(Date(timeIntervalSince1970: 7))
    #expect(date.now == Date(timeIntervalSince1970: 7))
    #expect(date() == Date(timeIntervalSince1970: 7))
  }
}
