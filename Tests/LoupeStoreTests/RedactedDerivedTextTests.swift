import Loupe
import Testing

/// A store whose `fact` and `facts` (`*fact*`) and `password` (``LoupeRedacted``) are hidden.
struct FactFeature: Reducer {
  /// A row of `facts`, which only stars.
  struct FactRow: Reducer {
    typealias State = Fact
    enum Action: Equatable { case starred }
    func reduce(into state: inout Fact, action: Action) -> Effect<Action> { .none }
  }

  struct Password: LoupeRedacted, Equatable { var text: String }
  struct Fact: Identifiable, Equatable {
    var id: String
    var text: String
  }
  struct State: Equatable {
    var fact: String?
    var facts: IdentifiedArrayOf<Fact> = []
    var password = Password(text: "")
  }
  enum Action: Equatable {
    case factLoaded(String)
    case save
    case saveStale
    case passwordChanged(Password)
    case logIn
    case addFact(Fact)
    case removeFact(String)
    case facts(IdentifiedAction<String, FactRow.Action>)
    case record(String)
  }
  struct SaveError: Error { var message: String }
  enum LoginError: Error { case rejected(String) }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .factLoaded(let fact):
        state.fact = fact
        return .none
      case .save:
        let fact = state.fact ?? ""
        return .run { _ in throw SaveError(message: "could not save \(fact) (disk full)") }
      case .saveStale:
        // The fact as it was when the effect started, long since replaced.
        let fact = state.fact ?? ""
        return .run { send in
          await send(.factLoaded("a newer fact entirely"))
          throw SaveError(message: "could not save \(fact)")
        }
      case .passwordChanged(let password):
        state.password = password
        return .none
      case .logIn:
        let password = state.password.text
        return .run { _ in throw LoginError.rejected("password \(password) was refused") }
      case .addFact(let fact):
        state.facts.append(fact)
        return .none
      case .removeFact(let id):
        state.facts.remove(id: id)
        return .none
      case .facts, .record:
        return .none
      }
    }
    .forEach(\.facts, action: Action.facts) { FactRow() }
  }
}

/// Texts a program derives from a redacted value (an effect's error, a warning, a mark's
/// label) are scrubbed of it before any sink sees them: with `LOUPE_REDACT='*fact*'`, an
/// effect that fails with an error describing the fact writes `<redacted>` where the fact was.
@MainActor
@Suite struct RedactedDerivedTextTests {
  func makeStore(_ state: FactFeature.State = .init()) -> (Store<FactFeature.State, FactFeature.Action>, EventBus, EventRecorder) {
    let (bus, recorder) = makeSession()
    bus.renderOptions.redactedPaths = [Glob("*fact*")]
    let store = Store(initialState: state, bus: bus) { FactFeature() }
    _ = recorder.take()
    return (store, bus, recorder)
  }

  /// The lines of `effect.finished` and `warning` events since the last take, without `seq`.
  func derivedTexts(_ recorder: EventRecorder) -> [String] {
    recorder.take().map { String($0.drop { $0 != " " }.dropFirst()) }.filter { $0.hasPrefix("effect.finished") || $0.hasPrefix("warning") }
  }

  @Test func anEffectErrorDescribingARedactedPathIsScrubbed() async {
    let (store, _, recorder) = makeStore()
    store.send(.factLoaded("Cats sleep 16 hours a day"))
    await store.send(.save).finish()
    #expect(derivedTexts(recorder) == [
      #"effect.finished FactFeature#1 e1 failed: SaveError(message: "could not save <redacted> (disk full)")"#
    ])
  }

  @Test func aValueInTheInitialStateIsKnownBeforeItChanges() async {
    let (store, _, recorder) = makeStore(.init(fact: "Otters hold hands asleep"))
    await store.send(.save).finish()
    #expect(derivedTexts(recorder) == [
      #"effect.finished FactFeature#1 e1 failed: SaveError(message: "could not save <redacted> (disk full)")"#
    ])
  }

  @Test func aReplacedValueStaysKnown() async {
    let (store, _, recorder) = makeStore()
    store.send(.factLoaded("Honey never spoils"))
    await store.send(.saveStale).finish()
    let lines = derivedTexts(recorder)
    #expect(lines == [#"effect.finished FactFeature#1 e1 failed: SaveError(message: "could not save <redacted>")"#])
  }

  @Test func aLoupeRedactedValueInAnErrorsTextIsScrubbed() async {
    let (store, _, recorder) = makeStore()
    store.send(.passwordChanged(.init(text: "hunter2-correct-horse")))
    await store.send(.logIn).finish()
    #expect(derivedTexts(recorder) == [
      #"effect.finished FactFeature#1 e1 failed: rejected("password <redacted> was refused")"#
    ])
  }

  @Test func aWarningNamingARedactedElementIsScrubbed() {
    let (store, _, recorder) = makeStore()
    store.send(.addFact(.init(id: "fact-about-owls", text: "Owls cannot move their eyes")))
    store.send(.removeFact("fact-about-owls"))
    _ = recorder.take()
    store.send(.facts(.element(id: "fact-about-owls", action: .starred)))
    #expect(derivedTexts(recorder) == [
      #"warning actionForMissingChild FactFeature#1: FactFeature.FactRow.Action.starred arrived for facts[id: "<redacted>"], which is not there; the action was ignored."#
    ])
  }

  @Test func aMarkLabelIsScrubbed() {
    let (store, bus, recorder) = makeStore()
    store.send(.factLoaded("Octopuses have three hearts"))
    _ = recorder.take()
    bus.emit(.mark(Mark(label: "checked: Octopuses have three hearts, and more")))
    #expect(recorder.events.last.map { event -> String in
      guard case .mark(let mark) = event.payload else { return event.kind }
      return mark.label
    } == "checked: <redacted>, and more")
  }

  /// Texts shorter than three characters are not kept: scrubbing every `ok` from every
  /// message would leave nothing readable (`protocol/values.md` says so).
  @Test func aTooShortValueIsNotScrubbed() async {
    let (store, _, recorder) = makeStore()
    store.send(.factLoaded("ok"))
    await store.send(.save).finish()
    #expect(derivedTexts(recorder) == [#"effect.finished FactFeature#1 e1 failed: SaveError(message: "could not save ok (disk full)")"#])
  }
}
