extension String {
  /// `a + b + c`, built in one allocation (each `+` allocates and copies again): for the
  /// labels and summary lines made for every action.
  init(joining a: String, _ b: String, _ c: String) {
    let count = a.utf8.count + b.utf8.count + c.utf8.count
    self.init(unsafeUninitializedCapacity: count) { buffer in
      var end = 0
      String.copyUTF8(of: a, to: buffer, at: &end)
      String.copyUTF8(of: b, to: buffer, at: &end)
      String.copyUTF8(of: c, to: buffer, at: &end)
      return end
    }
  }

  /// Copies the UTF-8 of `text` into `buffer` at `end` (which must leave room for it) and
  /// moves `end` past it.
  static func copyUTF8(of text: String, to buffer: UnsafeMutableBufferPointer<UInt8>, at end: inout Int) {
    var text = text
    text.withUTF8 { utf8 in
      _ = UnsafeMutableBufferPointer(rebasing: buffer[end..<(end + utf8.count)]).initialize(from: utf8)
      end += utf8.count
    }
  }
}
