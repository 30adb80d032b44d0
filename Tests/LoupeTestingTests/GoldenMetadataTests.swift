import Foundation
@testable import LoupeTesting
import Testing

/// A pager whose state and actions are enum cases: its events carry `shape`, and its
/// changes `oldShape` and `newShape`.
struct PagerFeature: Reducer {
  enum Phase: Equatable {
    case idle
    case loading(page: Int)
    case loaded([String])
  }
  struct State: Equatable {
    var phase = Phase.idle
  }
  enum Action: Equatable {
    case load(page: Int)
    case loaded([String])
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load(let page): state.phase = .loading(page: page)
    case .loaded(let items): state.phase = .loaded(items)
    }
    return .none
  }
}

/// Goldens recorded before a field of rendering metadata existed keep passing (issue 33,
/// item 11); goldens that have it pin it.
@MainActor
@Suite struct GoldenMetadataTests {
  func pagerRun() -> DiagnosticRecorder {
    let recorder = DiagnosticRecorder()
    let store = recorder.store(initialState: PagerFeature.State(), name: "Pager") { PagerFeature() }
    store.send(.load(page: 2))
    store.send(.loaded(["a", "b"]))
    return recorder
  }

  @Test func aGoldenRecordedBeforeShapesStillPasses() throws {
    // The fixture is this run as a Loupe without shapes wrote it; the stream has them.
    let text = try String(contentsOfFile: FixturePathForTests.resolve("Fixtures/pager-before-shapes.loupe"), encoding: .utf8)
    #expect(!text.contains("hape\""))
    let recorder = pagerRun()
    let stream = recorder.events.map(\.jsonText).joined(separator: "\n")
    #expect(stream.contains(#""shape":"#) && stream.contains(#""oldShape":"#) && stream.contains(#""newShape":"#))

    recorder.assertMatchesGolden("Fixtures/pager-before-shapes.loupe")
  }

  @Test func aGoldenWithShapesPinsThem() throws {
    // The same golden with its shapes, but the second action's taken out: a changed shape
    // where the golden has shapes is a difference.
    var golden = TraceNormalizer.normalize(pagerRun().events)
    let second = try #require(golden.indices.filter { golden[$0].kind == ActionReceived.kind }.last)
    guard case .actionReceived(var action) = golden[second].payload else { return }
    action.shape = nil
    golden[second].payload = .actionReceived(action)
    let path = NSTemporaryDirectory() + "loupe-golden-shapes-" + UUID().uuidString + ".loupe"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writer = try TraceWriter(path: path, header: TraceNormalizer.header)
    try writer.append(golden)
    try writer.close()

    let recorder = pagerRun()
    let failures = capturingIssues { recorder.assertMatchesGolden(path) }
    #expect(failures.count == 1)
    #expect(failures.first?.message.hasPrefix(
      "The stream does not match the golden trace \(path): 1 golden event is missing, 1 event is new.") == true)
  }

  @Test func onlyTheFieldsTheGoldenLacksAreLeftOut() {
    let events = TraceNormalizer.normalize(pagerRun().events)
    #expect(AdditiveMetadata.absent(from: events) == [])
    let withoutShapes = AdditiveMetadata.removing([.shape], from: events)
    #expect(AdditiveMetadata.absent(from: withoutShapes) == [.shape])
    let bare = AdditiveMetadata.removing(Set(AdditiveMetadata.allCases), from: events)
    #expect(AdditiveMetadata.absent(from: bare) == Set(AdditiveMetadata.allCases))
    #expect(!bare.map(\.jsonText).joined().contains("hape\""))
  }
}
