import Foundation
import Testing

@testable import LoupeCore

/// What cannot decode says so in one line naming the type, the path and the part: wrong kinds
/// of values, unknown cases, missing members and payloads, and everything a rendering leaves
/// out (cap markers, redaction, cycles).
@Suite struct RenderedDecoderErrorTests {
  typealias Action = Jukebox.Action
  typealias State = Jukebox.State
  typealias Track = Jukebox.Track

  @Test func theErrorNamesTypePathAndReason() throws {
    do {
      _ = try RenderedDecoder().decode(Action.self, from: ["tracks": ["element": ["id": "x", "action": "favoriteTapped"]]])
      Issue.record("decoded")
    } catch {
      #expect(error.typeName == "Jukebox.Action")
      #expect(error.path == "tracks.element.id")
      #expect(error.reason == #"expected an integer, found "x""#)
      #expect(error.description == #"Cannot decode Jukebox.Action: at 'tracks.element.id': expected an integer, found "x""#)
    }
  }

  @Test func wrongKindsOfValues() throws {
    let cases: [(String?, String)] = [
      (renderedDecodingError(Track.self, ["id": 1, "title": 2, "isFavorite": false]),
       #"Cannot decode Jukebox.Track: at 'title': expected a string, found 2"#),
      (renderedDecodingError(Track.self, ["id": 1.5, "title": "a", "isFavorite": false]),
       "Cannot decode Jukebox.Track: at 'id': expected an integer, found 1.5"),
      (renderedDecodingError(Track.self, ["id": 1, "title": "a", "isFavorite": "yes"]),
       #"Cannot decode Jukebox.Track: at 'isFavorite': expected a boolean, found "yes""#),
      (renderedDecodingError(Track.self, [1, 2]),
       "Cannot decode Jukebox.Track: at '': expected an object, found an array of 2 elements"),
      (renderedDecodingError(Track.self, "So What"),
       #"Cannot decode Jukebox.Track: at '': expected an object, found "So What""#),
      (renderedDecodingError([Int].self, ["a": 1]),
       "Cannot decode Array<Int>: at '': expected an array, found an object with member a"),
      (renderedDecodingError([String: Int].self, [1]),
       "Cannot decode Dictionary<String, Int>: at '': expected an object, found an array of 1 element"),
      (renderedDecodingError([UInt8].self, [1, 300]),
       "Cannot decode Array<UInt8>: at '[1]': expected an integer that fits in UInt8, found 300"),
      (renderedDecodingError(Int.self, "5"), #"Cannot decode Int: at '': expected an integer, found "5""#),
      (renderedDecodingError(Int.self, "18446744073709551615"),
       #"Cannot decode Int: at '': expected an integer that fits in Int, found "18446744073709551615""#),
      (renderedDecodingError(Double.self, "infinity"), #"Cannot decode Double: at '': expected a number, found "infinity""#),
      (renderedDecodingError(Float.self, 1e300), "Cannot decode Float: at '': expected a number that fits in Float, found 1e+300"),
      (renderedDecodingError(State.self, ["tracks": []]),
       "Cannot decode Jukebox.State: at '': missing member 'filter' (found an object with member tracks)"),
      (renderedDecodingError([String: [Int]].self, ["a": [1], "b c": [2, "x"]]),
       #"Cannot decode Dictionary<String, Array<Int>>: at '["b c"][1]': expected an integer, found "x""#),
      (renderedDecodingError([Int: String].self, ["1": "a", "x": "b"]),
       #"Cannot decode Dictionary<Int, String>: at '["x"]': Expected Int key but found String key instead."#),
      (renderedDecodingError([Jukebox.GridKey: String].self, [#"{"row":1}"#: "x"]),
       #"Cannot decode Dictionary<Jukebox.GridKey, String>: at '["{\"row\":1}"]': missing member 'column' (found an object with member row)"#),
    ]
    for (error, expected) in cases { #expect(error == expected) }
  }

  @Test func foundationValues() throws {
    let cases: [(String?, String)] = [
      (renderedDecodingError(Date.self, "yesterday"),
       #"Cannot decode Date: at '': expected a date (ISO 8601 like "2023-11-14T22:13:20.250Z", or seconds since 1970), found "yesterday""#),
      (renderedDecodingError(UUID.self, "deadbeef"), #"Cannot decode UUID: at '': expected a UUID, found "deadbeef""#),
      (renderedDecodingError(Data.self, "not base64!"), #"Cannot decode Data: at '': expected Base64 data, found "not base64!""#),
      (renderedDecodingError(Decimal.self, "12abc"), #"Cannot decode Decimal: at '': expected a decimal number, found "12abc""#),
      (renderedDecodingError(IndexSet.self, [1, -2]),
       "Cannot decode IndexSet: at '': expected an array of integers from 0, found an array of 2 elements"),
      (renderedDecodingError(URL.self, 3), "Cannot decode URL: at '': expected an absolute URL, found 3"),
    ]
    for (error, expected) in cases { #expect(error == expected) }
  }

  @Test func enumCasesAndPayloads() throws {
    let cases: [(String?, String)] = [
      (renderedDecodingError(Jukebox.TrackAction.self, "fooTapped"),
       "Cannot decode Jukebox.TrackAction: at '': no case 'fooTapped' in Jukebox.TrackAction (cases: renamed, played, favoriteTapped)"),
      (renderedDecodingError(Action.self, ["tracks": ["element": ["id": 1, "action": "flipped"]]]),
       "Cannot decode Jukebox.Action: at 'tracks.element.action': no case 'flipped' in Jukebox.TrackAction (cases: renamed, played, favoriteTapped)"),
      (renderedDecodingError(Jukebox.TrackAction.self, ["fooTapped": 1]),
       "Cannot decode Jukebox.TrackAction: at '': no case 'fooTapped' in Jukebox.TrackAction (cases: renamed, played, favoriteTapped)"),
      (renderedDecodingError(Jukebox.TrackAction.self, ["renamed": "a", "played": 1]),
       "Cannot decode Jukebox.TrackAction: at '': expected a case of Jukebox.TrackAction (a case name, or an object of one member: a case and its payload), found an object with members renamed, played (cases: renamed, played, favoriteTapped)"),
      (renderedDecodingError(Jukebox.TrackAction.self, 5),
       "Cannot decode Jukebox.TrackAction: at '': expected a case of Jukebox.TrackAction (a case name, or an object of one member: a case and its payload), found 5 (cases: renamed, played, favoriteTapped)"),
      (renderedDecodingError(Jukebox.Queue.self, "later"), "Cannot decode Jukebox.Queue: at '': no case 'later' in Jukebox.Queue"),
      (renderedDecodingError(Jukebox.TrackAction.self, "renamed"),
       #"Cannot decode Jukebox.TrackAction: at '': case 'renamed' has a payload: expected {"renamed": …}, found only its name"#),
      (renderedDecodingError(Jukebox.Mode.self, ["seeking": [:]]),
       "Cannot decode Jukebox.Mode: at 'seeking': missing member 'to' (found an empty object)"),
      (renderedDecodingError(Jukebox.Mode.self, ["pair": [1]]),
       "Cannot decode Jukebox.Mode: at 'pair': missing the payload's value at position 1 (found 1 value)"),
      (renderedDecodingError(Jukebox.Mode.self, ["pair": 1]),
       "Cannot decode Jukebox.Mode: at 'pair': missing the payload's value at position 1 (found 1)"),
      (renderedDecodingError(Jukebox.Mode.self, ["mixed": ["0": "x", "loop": true]]),
       #"Cannot decode Jukebox.Mode: at 'mixed.0': expected an integer, found "x""#),
      (renderedDecodingError(Action.self, ["added": ["id": 1]]),
       "Cannot decode Jukebox.Action: at 'added': missing member 'title' (found an object with member id)"),
      (renderedDecodingError(Action.self, ["addedMany": [["id": 1, "title": "a", "isFavorite": false], ["id": "2"]]]),
       #"Cannot decode Jukebox.Action: at 'addedMany[1].id': expected an integer, found "2""#),
      (renderedDecodingError(Tint.self, "red"),
       "Cannot decode Tint: at '': 'red' is a case of Tint, but a raw-value enum reads its case name only when it is CaseIterable (its own init(from:) expects the raw value)"),
      (renderedDecodingError(Jukebox.Filter.self, "none"),
       "Cannot decode Jukebox.Filter: at '': no case 'none' in Jukebox.Filter (cases: all, favorites, recent)"),
    ]
    for (error, expected) in cases { #expect(error == expected) }
  }

  @Test func errorsOfTheTypesOwnCode() throws {
    #expect(renderedDecodingError([EvenNumber].self, [2, 3]) == "Cannot decode Array<EvenNumber>: at '[1]': EvenNumber threw: Odd()")
    #expect(
      renderedDecodingError(IdentifiedArrayOf<Track>.self, [["id": 1, "title": "a", "isFavorite": false], ["id": 1, "title": "b", "isFavorite": true]])
        == "Cannot decode IdentifiedArray<Int, Jukebox.Track>: at '': element 1 repeats the id 1")
  }

  /// What a rendering left out cannot come back: each marker says which cap cut it, or that it
  /// is redacted or a cycle.
  @Test func markersOfWhatTheRenderingLeftOut() throws {
    var state = State()
    state.tracks = IdentifiedArray(uniqueElements: (1...5).map { Track(id: $0, title: "t\($0)") })
    state.plays = [1: 1, 2: 2, 3: 3]
    let cases: [(String?, String)] = [
      (renderedDecodingError(State.self, ValueRenderer.render(state, options: RenderOptions(maxCollectionCount: 4))),
       #"Cannot decode Jukebox.State: at 'tracks': the array was cut short by a rendering cap (maxCollectionCount): "… 1 more""#),
      (renderedDecodingError([Int: Int].self, ValueRenderer.render(state.plays, options: RenderOptions(maxCollectionCount: 2))),
       #"Cannot decode Dictionary<Int, Int>: at '': the object was cut short by a rendering cap (maxCollectionCount): "…": "1 more""#),
      (renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "abcdefgh"), options: RenderOptions(maxStringLength: 5))),
       #"Cannot decode Jukebox.Track: at 'title': the string was cut short by a rendering cap (maxStringLength): it ends with "… (3 more characters)""#),
      (renderedDecodingError(Data.self, ValueRenderer.render(Data(count: 10), options: RenderOptions(maxStringLength: 8))),
       #"Cannot decode Data: at '': the data was cut short by a rendering cap (maxStringLength): it ends with "… (4 more bytes)""#),
      (renderedDecodingError(Action.self, ValueRenderer.render(Action.tracks(.element(id: 1, action: .renamed("x"))), options: RenderOptions(maxDepth: 2))),
       #"Cannot decode Jukebox.Action: at 'tracks.element.id': the value was cut short by a rendering cap (maxDepth): "… (max depth)""#),
      (renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "a"), options: RenderOptions(maxNodes: 2))),
       #"Cannot decode Jukebox.Track: at 'title': the value was cut short by a rendering cap (maxNodes): "… (max size)""#),
      (renderedDecodingError(Track.self, ValueRenderer.render(Track(id: 1, title: "a"), options: RenderOptions(redactedPaths: [Glob("title")]))),
       #"Cannot decode Jukebox.Track: at 'title': the value is redacted ("<redacted>") and cannot be decoded"#),
      (renderedDecodingError(State.self, ValueRenderer.render(State(), options: RenderOptions(redactedPaths: [Glob("nested")]))),
       #"Cannot decode Jukebox.State: at 'nested': the value is redacted ("<redacted>") and cannot be decoded"#),
      (renderedDecodingError(Action.self, ValueRenderer.render(Action.modeChanged(.playing(2)), options: RenderOptions(redactedPaths: [Glob("modeChanged")]))),
       #"Cannot decode Jukebox.Action: at 'modeChanged': the value is redacted ("<redacted>") and cannot be decoded"#),
    ]
    for (error, expected) in cases { #expect(error == expected) }
  }

  @Test func aCycleMarkerIsNoValue() throws {
    let first = Chain(1)
    first.next = Chain(2, next: first)
    defer { first.next = nil }
    let json = ValueRenderer.render(first)
    #expect(json.jsonText == #"{"value":1,"next":{"value":2,"next":{"$ref":""}}}"#)
    #expect(
      renderedDecodingError(Chain.self, json)
        == #"Cannot decode Chain: at 'next.next': the value is a cycle marker {"$ref":""}: a reference back to a value that holds it, which cannot be decoded"#)
  }

  /// Input nested deeper than ``RenderedDecoder/maximumDepth`` stops with an error, not a
  /// crash — also on a thread with a 512 KB stack, the size of a secondary thread's on Apple
  /// platforms.
  @Test func deepInputStopsAtTheDepthLimit() async throws {
    func queue(depth: Int) -> JSON {
      var json: JSON = "empty"
      for index in 0..<depth { json = ["next": ["0": ["id": .int(index), "title": "t", "isFavorite": false], "then": json]] }
      return json
    }
    let deep = queue(depth: 600)
    let message = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
      let thread = Thread {
        do {
          _ = try RenderedDecoder().decode(Jukebox.Queue.self, from: deep)
          continuation.resume(returning: "decoded")
        } catch {
          continuation.resume(returning: "\(error)")
        }
      }
      thread.stackSize = 512 * 1024
      thread.start()
    }
    #expect(message.hasPrefix("Cannot decode Jukebox.Queue: at 'next.then.next.then."))
    #expect(message.hasSuffix("': the value is nested more than 256 levels deep"))
    #expect(throws: Never.self) { try RenderedDecoder().decode(Jukebox.Queue.self, from: queue(depth: 100)) }
  }
}
