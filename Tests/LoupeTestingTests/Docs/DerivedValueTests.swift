import LoupeTesting
import Testing

@MainActor
@Test func readAndSubscribeToADerivedValue() {
  let recorder = DiagnosticRecorder()
  let store = recorder.store(initialState: SearchFeature.State(results: ["Fix the roof"])) {
    SearchFeature(search: { _ in [] })
  }
  // Memoized on its input: computed now, then only when `results` changes.
  let count = store.derived("resultCount", select: \.results) { $0.count }
  #expect(count.value == 1)  // read it (it is Observable, too)

  // `sink` calls now with the current value, then with each changed one.
  var seen: [Int] = []
  let subscription = count.sink { changes in seen.append(changes.current) }
  store.send(.searchResponse(["Fix the roof", "Call the roofer"]))
  store.send(.queryChanged("roof"))  // the input did not change: nothing recomputed
  #expect(count.value == 2)
  #expect(seen == [1, 2])
  subscription.cancel()

  recorder.expect(
    [
      .derivedRecomputed("resultCount", outputChanged: true),
      .derivedRecomputed("resultCount", outputChanged: true),
    ], kinds: ["derived.*"])
}
