/// The bytes libFuzzer hands a harness, and a small deterministic generator seeded from them,
/// so a harness can split its input into chunks the same way on every run of that input.
struct FuzzInput {
  let bytes: UnsafeBufferPointer<UInt8>

  init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
  }

  /// A generator whose sequence depends on every input byte (FNV-1a of the input).
  var generator: SplitMix64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return SplitMix64(state: hash)
  }

  /// The input cut into chunks of 1 to `maxChunk` bytes.
  func chunks(maxChunk: Int) -> [ArraySlice<UInt8>] {
    var random = generator
    let all = Array(bytes)
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    while start < all.count {
      let end = min(all.count, start + 1 + Int(random.next() % UInt64(maxChunk)))
      chunks.append(all[start..<end])
      start = end
    }
    return chunks
  }
}

struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Stops the run with a message libFuzzer reports as a crash (and saves the input).
func fuzzFailure(_ message: String) -> Never {
  fatalError("fuzz invariant broken: \(message)")
}
