import LoupeCore

/// `json`: arbitrary bytes through the JSON parser.
///
/// Invariants: never traps; what parses re-encodes (`jsonText`) to text that parses to the
/// same value, and encodes the same again; an error's offset lies within the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = FuzzInput(data, size)
  do {
    let json = try JSONParser.parse(input.bytes)
    let text = json.jsonText
    guard let again = try? JSONParser.parse(text) else { fuzzFailure("\(text) does not parse") }
    guard again == json, again.jsonText == text else { fuzzFailure("\(text) does not round-trip") }
  } catch {
    guard error.offset >= 0, error.offset <= input.bytes.count else {
      fuzzFailure("error offset \(error.offset) outside \(input.bytes.count) bytes: \(error)")
    }
  }
  return 0
}
