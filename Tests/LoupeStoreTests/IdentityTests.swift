import Loupe
import Testing

/// Seed 002: a child shown, hidden and shown again gets a new identity and fresh state.
@MainActor
@Suite struct IdentityTests {
  @Test func shownHiddenShownAgainIsANewIdentityWithFreshState() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ContentFeature.State(), bus: bus) { ContentFeature() }
    #expect(recorder.take() == [
      "2 identity.changed ContentFeature#1 i1 created",
      "3 store.created ContentFeature#1 type=ContentFeature parent=- i1",
      "4 identity.changed ContentFeature#1/playButton i2 created",
      "5 store.created ContentFeature#1/playButton type=PlayButton parent=ContentFeature#1 i2",
    ])

    let first = try #require(store.scope(state: \.playButton, action: ContentFeature.Action.playButton))
    #expect(first.storeID == "ContentFeature#1/playButton")
    first.send(.tapped)
    #expect(first.isPlaying)
    #expect(recorder.take() == [
      "6 action.received ContentFeature#1/playButton PlayButton.Action.tapped send",
      "7 state.changed ContentFeature#1/playButton cause=6 [isPlaying: false → true] \"ContentFeature#1/playButton: _isPlaying changed.\"",
    ])

    store.send(.toggleTapped)
    #expect(store.scope(state: \.playButton, action: ContentFeature.Action.playButton) == nil)
    #expect(recorder.take() == [
      "8 action.received ContentFeature#1 ContentFeature.Action.toggleTapped send",
      "9 identity.changed ContentFeature#1/playButton i2 dismissed",
      "10 store.destroyed ContentFeature#1/playButton i2",
      "11 state.changed ContentFeature#1 cause=8 [showPlayButton: true → false, -playButton: {\"isPlaying\":true}] \"ContentFeature#1: _showPlayButton, _playButton changed.\"",
    ])

    store.send(.toggleTapped)
    let second = try #require(store.scope(state: \.playButton, action: ContentFeature.Action.playButton))
    #expect(second !== first)
    #expect(second.identity == "i3")
    #expect(!second.isPlaying)
    #expect(recorder.take() == [
      "12 action.received ContentFeature#1 ContentFeature.Action.toggleTapped send",
      "13 identity.changed ContentFeature#1/playButton i3 presented previous=i2",
      "14 store.created ContentFeature#1/playButton type=PlayButton parent=ContentFeature#1 i3",
      "15 state.changed ContentFeature#1 cause=12 [showPlayButton: false → true, +playButton: {\"isPlaying\":false}] \"ContentFeature#1: _showPlayButton, _playButton changed.\"",
      "16 state.changed ContentFeature#1/playButton cause=12 [isPlaying: true → false] \"ContentFeature#1/playButton: @self, @identity, _isPlaying changed.\"",
    ])

    // The first button's store belongs to the ended identity: it keeps its last state and
    // ignores actions, loudly.
    #expect(!first.isAlive)
    #expect(first.isPlaying)
    first.send(.tapped)
    #expect(!second.isPlaying)
    #expect(recorder.take() == [
      "17 warning sendToEndedStore ContentFeature#1/playButton: PlayButton.Action.tapped was sent to ContentFeature#1/playButton after its identity i2 ended; the action was ignored.",
    ])
  }

  @Test func aFirstPresentationIsAnInsertOfTheWholeState() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    _ = recorder.take()
    store.send(.show(7))
    #expect(recorder.take() == [
      "6 action.received ParentFeature#1 ParentFeature.Action.show send",
      "7 identity.changed ParentFeature#1/detail i3 presented",
      "8 store.created ParentFeature#1/detail type=Detail parent=ParentFeature#1 i3",
      "9 identity.changed ParentFeature#1/detail/counter i4 created",
      "10 store.created ParentFeature#1/detail/counter type=Counter parent=ParentFeature#1/detail i4",
      "11 state.changed ParentFeature#1 cause=6 [+detail: {\"id\":7,\"note\":\"\",\"counter\":{\"count\":0,\"label\":\"count\"}}] \"ParentFeature#1: _detail changed.\"",
      "12 state.changed ParentFeature#1/detail cause=6 [+@: {\"id\":7,\"note\":\"\",\"counter\":{\"count\":0,\"label\":\"count\"}}] \"ParentFeature#1/detail: @self, @identity changed.\"",
    ])
  }

  @Test func anotherIdentifiableValueReplacesTheIdentityAndEndsItsEffects() async throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 1)), bus: bus) { ParentFeature() }
    let detail = try #require(store.scope(state: \.detail, action: ParentFeature.Action.detail))
    let watch = detail.send(.watch)
    _ = recorder.take()
    store.send(.show(2))
    await watch.finish()
    #expect(recorder.take() == [
      "12 action.received ParentFeature#1 ParentFeature.Action.show send",
      "13 identity.changed ParentFeature#1/detail i5 replaced previous=i3",
      "14 effect.cancelled ParentFeature#1/detail e1 identityEnded by=ParentFeature#1@12",
      "15 store.destroyed ParentFeature#1/detail/counter i4",
      "16 store.destroyed ParentFeature#1/detail i3",
      "17 store.created ParentFeature#1/detail type=Detail parent=ParentFeature#1 i5",
      "18 identity.changed ParentFeature#1/detail/counter i6 created",
      "19 store.created ParentFeature#1/detail/counter type=Counter parent=ParentFeature#1/detail i6",
      "20 state.changed ParentFeature#1 cause=12 [detail.id: 1 → 2] \"ParentFeature#1: _detail changed.\"",
      "21 state.changed ParentFeature#1/detail cause=12 [id: 1 → 2] \"ParentFeature#1/detail: @self, @identity, _id changed.\"",
    ])
  }

  @Test func theSameValueEditedKeepsItsIdentity() throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 1)), bus: bus) { ParentFeature() }
    _ = recorder.take()
    store.send(.detail(.edit("hi")))
    #expect(try #require(store.scope(state: \.detail, action: ParentFeature.Action.detail)).identity == "i3")
    #expect(recorder.take() == [
      "10 action.received ParentFeature#1 ParentFeature.Action.detail send",
      "11 action.received ParentFeature#1/detail Detail.Action.edit parent",
      "12 state.changed ParentFeature#1/detail cause=11 [note: \"\" → \"hi\"] \"ParentFeature#1/detail: _note changed.\"",
    ])
  }

  @Test func dismissingCancelsTheChildsEffects() async throws {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(detail: Detail.State(id: 1)), bus: bus) { ParentFeature() }
    let watch = try #require(store.scope(state: \.detail, action: ParentFeature.Action.detail)).send(.watch)
    _ = recorder.take()
    store.send(.hide)
    await watch.finish()
    #expect(recorder.take() == [
      "12 action.received ParentFeature#1 ParentFeature.Action.hide send",
      "13 identity.changed ParentFeature#1/detail i3 dismissed",
      "14 effect.cancelled ParentFeature#1/detail e1 identityEnded by=ParentFeature#1@12",
      "15 store.destroyed ParentFeature#1/detail/counter i4",
      "16 store.destroyed ParentFeature#1/detail i3",
      "17 state.changed ParentFeature#1 cause=12 [-detail: {\"id\":1,\"note\":\"\",\"counter\":{\"count\":0,\"label\":\"count\"}}] \"ParentFeature#1: _detail changed.\"",
    ])
  }

  @Test func anActionForAnAbsentChildIsAWarning() {
    let (bus, recorder) = makeSession()
    let store = Store(initialState: ParentFeature.State(), bus: bus) { ParentFeature() }
    _ = recorder.take()
    store.send(.detail(.edit("x")))
    #expect(recorder.take() == [
      "6 action.received ParentFeature#1 ParentFeature.Action.detail send",
      "7 warning actionForMissingChild ParentFeature#1: Detail.Action.edit arrived while detail was nil; the action was ignored.",
    ])
  }
}
