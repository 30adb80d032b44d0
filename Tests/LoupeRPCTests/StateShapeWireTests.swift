import LoupeCore
import Testing
@testable import LoupeRPC

/// `loupe/state`'s optional `shape` (issue 33 #14): encoded only when the state holds an enum
/// case or a tuple, read back, and a malformed one is a clear error.
@Suite struct StateShapeWireTests {
  @Test func aStateResultCarriesItsShapeWhenItHasOne() throws {
    let shaped = StateRequest.Result(
      store: "App#1", seq: 9, state: ["mode": ["playing": 1.5]], shape: ValueShape(enums: ["mode"]))
    let json = #"{"store":"App#1","seq":9,"state":{"mode":{"playing":1.5}},"shape":{"enums":["mode"]}}"#
    #expect(StateRequest.encodeResult(shaped).jsonText == json)
    #expect(try StateRequest.decodeResult(JSONParser.parse(json)) == shaped)
    // An empty shape is no shape: left out, and absent reads as none.
    let plain = StateRequest.Result(store: "App#1", seq: 9, state: 3, shape: ValueShape())
    #expect(StateRequest.encodeResult(plain).jsonText == #"{"store":"App#1","seq":9,"state":3}"#)
    #expect(try StateRequest.decodeResult(JSONParser.parse(#"{"store":"App#1","seq":9,"state":3}"#)).shape == nil)
    #expect(throws: ResponseError.self) {
      try StateRequest.decodeResult(JSONParser.parse(#"{"store":"App#1","seq":9,"state":3,"shape":["mode"]}"#))
    }
  }
}
