import Foundation
import Testing

@testable import LoupeCore

/// `protocol/values.md`'s examples of what does not decode are what the decoder says.
@Suite struct RenderedDecoderDocumentationTests {
  static let valuesPage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("protocol/values.md")

  /// The errors, in the page's order.
  static func messages() -> [String?] {
    typealias Action = Jukebox.Action
    typealias Track = Jukebox.Track
    var state = Jukebox.State()
    state.tracks = IdentifiedArray(uniqueElements: (1...5).map { Track(id: $0, title: "t\($0)") })
    let first = Chain(1)
    first.next = Chain(2, next: first)
    defer { first.next = nil }
    return [
      renderedDecodingError(Action.self, ["tracks": ["element": ["id": "x", "action": "favoriteTapped"]]]),
      renderedDecodingError(Jukebox.TrackAction.self, "fooTapped"),
      renderedDecodingError(Jukebox.TrackAction.self, "renamed"),
      renderedDecodingError(Track.self, ["id": 1]),
      renderedDecodingError(Jukebox.State.self, ValueRenderer.render(state, options: RenderOptions(maxCollectionCount: 4))),
      renderedDecodingError([Int: Int].self, ValueRenderer.render([1: 1, 2: 2, 3: 3], options: RenderOptions(maxCollectionCount: 2))),
      renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "abcdefgh"), options: RenderOptions(maxStringLength: 5))),
      renderedDecodingError(Action.self, ValueRenderer.render(Action.tracks(.element(id: 1, action: .renamed("x"))), options: RenderOptions(maxDepth: 2))),
      renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "a"), options: RenderOptions(maxNodes: 2))),
      renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "a"), options: RenderOptions(redactedPaths: [Glob("title")]))),
      renderedDecodingError(Chain.self, ValueRenderer.render(first)),
    ]
  }

  @Test func thePageShowsTheRealMessages() throws {
    let page = try String(contentsOf: Self.valuesPage, encoding: .utf8)
    let section = try #require(page.range(of: "### What does not decode"))
    let rest = page[section.upperBound...]
    let open = try #require(rest.range(of: "```\n"))
    let close = try #require(rest[open.upperBound...].range(of: "```"))
    let shown = rest[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    #expect(shown == Self.messages().map { $0 ?? "(decoded)" })
  }
}
