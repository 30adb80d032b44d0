import LoupeRPC

/// `frames`: arbitrary bytes through `FrameDecoder`, whole and in input-chosen chunks.
///
/// Invariants: never traps; the same frames and the same verdict whatever the split; every
/// body within the size limit; a failed decoder stays failed; each frame re-encoded decodes
/// back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = FuzzInput(data, size)
  let limits = FrameDecoder.Limits(maxBodySize: 4096, maxHeaderSize: 512)
  let whole = decode([ArraySlice(input.bytes)], limits: limits)
  let pieces = decode(input.chunks(maxChunk: 17), limits: limits)
  guard whole.frames == pieces.frames, whole.end == pieces.end else {
    fuzzFailure("chunking changed the result: \(whole) vs \(pieces)")
  }
  for body in whole.frames {
    guard body.count <= limits.maxBodySize else { fuzzFailure("a body over the limit") }
    var again = FrameDecoder(limits: limits)
    again.append(FrameEncoder.frame(body))
    guard again.next() == .frame(body), again.next() == .needMoreData, again.isAtFrameBoundary else {
      fuzzFailure("a frame does not survive re-encoding")
    }
  }
  return 0
}

private struct Decoded: Equatable {
  var frames: [[UInt8]] = []
  /// `nil` while more data could complete a frame; the error once failed.
  var end: FrameError?
}

private func decode(_ chunks: [ArraySlice<UInt8>], limits: FrameDecoder.Limits) -> Decoded {
  var decoder = FrameDecoder(limits: limits)
  var result = Decoded()
  for chunk in chunks {
    decoder.append(chunk)
    loop: while true {
      switch decoder.next() {
      case .frame(let body): result.frames.append(body)
      case .needMoreData: break loop
      case .failed(let error):
        result.end = error
        guard decoder.next() == .failed(error), !decoder.isAtFrameBoundary else {
          fuzzFailure("a failed decoder recovered")
        }
        return result
      }
    }
  }
  return result
}
