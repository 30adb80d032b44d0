import Foundation
import Loupe
import LoupeTesting
import Testing

/// Dependencies spelled as in TCA.
struct StampFeature: Reducer {
  struct State: Equatable {
    var stamps: [Stamp] = []
    var waited = false
    var greeting = ""
  }
  struct Stamp: Equatable {
    let id: UUID
    let date: Date
  }
  enum Action: Equatable {
    case stampTapped
    case waitTapped
    case waited
    case greetTapped
    case greeted(String)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid
  @Dependency(\.greeter) var greeter

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .stampTapped:
        state.stamps.append(Stamp(id: uuid(), date: now))
        return .none
      case .waitTapped:
        return .run { send in
          try await clock.sleep(for: .seconds(5))
          await send(.waited)
        }
      case .waited:
        state.waited = true
        return .none
      case .greetTapped:
        return .run { send in await send(.greeted(try await greeter.greet("Blob"))) }
      case .greeted(let text):
        state.greeting = text
        return .none
      }
    }
  }
}

struct Greeter: Sendable {
  var greet: @Sendable (_ name: String) async throws -> String
  var count: @Sendable () -> Int
}

enum GreeterKey: DependencyKey {
  static let liveValue = Greeter(greet: { "Hello, \($0)" }, count: { 1 })
  static let testValue = Greeter(greet: unimplemented("Greeter.greet"), count: unimplemented("Greeter.count", placeholder: 0))
}

extension DependencyValues {
  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
}

/// A parent of `StampFeature`, for `.dependency` on a composition.
struct StampHost: Reducer {
  struct State: Equatable { var child = StampFeature.State() }
  enum Action: Equatable { case child(StampFeature.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { StampFeature() }
  }
}

@MainActor
@Suite struct DependencySpellingTests {
  @Test func uuidsDatesAndDependenciesChangedBetweenSteps() async {
    let store = TestStore(initialState: StampFeature.State()) {
      StampFeature()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 100)
    }
    await store.send(.stampTapped) {
      $0.stamps = [StampFeature.Stamp(id: UUID(0), date: Date(timeIntervalSince1970: 100))]
    }
    store.dependencies.date.now = Date(timeIntervalSince1970: 200)
    store.dependencies.uuid = .constant(UUID(7))
    await store.send(.stampTapped) {
      $0.stamps.append(StampFeature.Stamp(id: UUID(7), date: Date(timeIntervalSince1970: 200)))
    }
  }

  @Test func theContinuousClockIsTheTestClock() async {
    let store = TestStore(initialState: StampFeature.State()) { StampFeature() }
    await store.send(.waitTapped)
    await store.clock.advance(by: .seconds(5))
    await store.receive(.waited) { $0.waited = true }
  }

  @Test func anImmediateClockDoesNotWait() async {
    let store = TestStore(initialState: StampFeature.State()) {
      StampFeature()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.waitTapped)
    await store.receive(.waited) { $0.waited = true }
  }

  @Test func anUnimplementedEndpointFailsTheTest() async {
    let store = TestStore(initialState: StampFeature.State()) { StampFeature() }
    let line = #line + 3
    let failures = await capturingIssues {
      await store.send(.greetTapped)
      await store.finish()
    }
    #expect(failures.map(\.message) == ["Unimplemented: Greeter.greet"])
    #expect(failures.first?.line == line || failures.first?.line == line - 1)
  }

  @Test func theDependencyModifierChangesTheReducersAndItsEffects() async {
    let store = TestStore(initialState: StampFeature.State()) {
      StampFeature().dependency(\.greeter.greet, { "Hi, \($0)" })
    }
    await store.send(.greetTapped)
    await store.receive(.greeted("Hi, Blob")) { $0.greeting = "Hi, Blob" }
  }

  @Test func theDependencyModifierReachesTheEffectsOfChildFeatures() async {
    let store = TestStore(initialState: StampHost.State()) {
      StampHost().dependency(\.greeter.greet, { "Hey, \($0)" })
    }
    await store.send(.child(.greetTapped))
    await store.receive(.child(.greeted("Hey, Blob"))) { $0.child.greeting = "Hey, Blob" }
  }

  @Test func uuidFromAnInteger() {
    #expect(UUID(0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(26).uuidString == "00000000-0000-0000-0000-00000000001A")
  }

  @Test func unimplementedWithAPlaceholderReturnsIt() {
    let failures = capturingIssues {
      let count = withDependencies { $0.reportIssue = { Issue.record(Comment(rawValue: $0)) } } operation: {
        GreeterKey.testValue.count()
      }
      #expect(count == 0)
    }
    #expect(failures.map(\.message) == ["Unimplemented: Greeter.count"])
  }
}
