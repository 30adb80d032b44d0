/// Writes LSP base-protocol frames: `Content-Length: N\r\n\r\n` then the body.
///
/// Loupe never sends `Content-Type` (its default, `application/vscode-jsonrpc; charset=utf-8`,
/// is what the body is).
public enum FrameEncoder {
  /// The complete frame for `body`.
  public static func frame(_ body: some Collection<UInt8>) -> [UInt8] {
    var frame = header(forBodyLength: body.count)
    frame.append(contentsOf: body)
    return frame
  }

  /// Just the header block for a body of `length` bytes.
  public static func header(forBodyLength length: Int) -> [UInt8] {
    Array("Content-Length: \(length)\r\n\r\n".utf8)
  }
}
