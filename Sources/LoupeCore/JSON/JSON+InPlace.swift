/// Editing a JSON tree where it lies. `JSON` is an enum whose arrays and objects are
/// copy-on-write buffers: an edit through a bound copy (`case .array(var a) = value`) finds the
/// buffer shared with `value` and copies it whole. These move the container out first (the
/// value is `null` meanwhile), so the buffer stays uniquely referenced and the edit copies
/// nothing; the container is put back however `body` ends.
extension JSON {
  /// Runs `body` on this array's elements in place; `nil` (and nothing run) when this is not
  /// an array.
  mutating func editArray<Result, Failure: Error>(_ body: (inout [JSON]) throws(Failure) -> Result) throws(Failure) -> Result? {
    guard case .array(var array) = self else { return nil }
    self = .null
    defer { self = .array(array) }
    return try body(&array)
  }

  /// Runs `body` on this object's members in place; `nil` (and nothing run) when this is not
  /// an object.
  mutating func editObject<Result, Failure: Error>(_ body: (inout JSONObject) throws(Failure) -> Result) throws(Failure) -> Result? {
    guard case .object(var object) = self else { return nil }
    self = .null
    defer { self = .object(object) }
    return try body(&object)
  }
}
