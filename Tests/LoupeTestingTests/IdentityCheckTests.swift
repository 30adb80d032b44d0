import LoupeTesting
import Testing

/// The identity checks, on seed 002: hiding and showing a child gives it a new identity.
@MainActor
@Suite struct IdentityCheckTests {
  @Test func hidingAndShowingTheButtonFailsIdentityUnchanged() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    store.send(.playButton(.tapped))
    store.send(.toggleTapped)
    store.send(.toggleTapped)
    #expect(store.playButton?.isPlaying == false)  // reset: the seed's surprise
    recorder.assertIdentityChanged("ContentFeature#1/playButton", reason: .dismissed)
    recorder.assertIdentityChanged("ContentFeature#1/playButton", reason: .presented)
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertIdentityUnchanged("ContentFeature#1/playButton")
    }
    #expect(failures == [CapturedFailure(message: """
      The identity of ContentFeature#1/playButton changed: it should have stayed i2.

          #4 identity.changed ContentFeature#1/playButton identity: i2, reason: created
          #9 action.received ContentFeature#1 action: ContentFeature.Action.toggleTapped, origin: send, source: IdentityCheckTests.swift:11
        + #10 identity.changed ContentFeature#1/playButton identity: i2, reason: dismissed
          #13 action.received ContentFeature#1 action: ContentFeature.Action.toggleTapped, origin: send, source: IdentityCheckTests.swift:12
        + #14 identity.changed ContentFeature#1/playButton identity: i3, previous: i2, reason: presented

      (Expected: −, Actual: +)

      A new identity starts with fresh state and no effects (seed 002: a view's state reset when it was hidden and shown).
      """, line: line)])
  }

  @Test func tappingTheButtonKeepsItsIdentity() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    store.send(.playButton(.tapped))
    store.send(.playButton(.tapped))
    recorder.assertIdentityUnchanged("ContentFeature#1/playButton")
    recorder.assertIdentityUnchanged("ContentFeature#1")
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertIdentityChanged("ContentFeature#1/playButton")
    }
    #expect(failures == [CapturedFailure(message: """
      The identity of ContentFeature#1/playButton did not change.

          #4 identity.changed ContentFeature#1/playButton identity: i2, reason: created
        − identity.changed ContentFeature#1/playButton

      (Expected: −, Actual: +)
      """, line: line)])
  }

  @Test func anUnknownStoreIsReported() {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: ContentFeature.State()) { ContentFeature() }
    _ = store
    let line = #line + 2
    let failures = capturingIssues {
      recorder.assertIdentityUnchanged("ContentFeature#1/playbutton")
    }
    #expect(failures == [CapturedFailure(message: """
      No store ContentFeature#1/playbutton in the stream: its stores are ContentFeature#1, ContentFeature#1/playButton.
      """, line: line)])
  }
}
