/// Where each event's line is in a trace file, packed: a line's length (a varint of two bytes
/// or so), and how far its offset is from the end of the line before it, which for the
/// consecutive lines of a trace is always the same and so costs nothing in a sealed block
/// (``PackedColumns``). Replaces an offset and a length of 12 bytes an event.
package struct LineLocations {
  /// Column 0: the length; column 1: the offset minus the bytes of every line before it
  /// (each line and its break), constant while lines follow one another.
  private let columns = PackedColumns(modes: [.plain, .delta])
  /// The bytes of the lines before each block (the running sum the offsets are taken from).
  private var blockStarts: [Int] = [0]
  private var written = 0
  /// The running sum before each row of the open block.
  private var openStarts: [Int] = []
  /// The offsets of the last block read, and which it was.
  private var cachedBlock = -1
  private var cachedOffsets: [Int] = []

  package init() {}

  package var count: Int { columns.count }

  /// Adds the next line's location; an offset of -1 for a line not in the file.
  package mutating func append(offset: Int, length: Int) {
    columns.append(length, offset - written)
    openStarts.append(written)
    written += length + 1
    if columns.count % PackedColumns.blockSize == 0 {
      blockStarts.append(written)
      openStarts.removeAll(keepingCapacity: true)
    }
  }

  package mutating func location(at index: Int) -> (offset: Int, length: Int) {
    let length = columns.value(0, at: index)
    let block = index / PackedColumns.blockSize
    guard block < columns.sealedBlocks else {
      return (offset(inOpen: index), length)
    }
    if cachedBlock != block {
      var offsets = columns.values(1, ofBlock: block)
      let lengths = columns.values(0, ofBlock: block)
      var before = blockStarts[block]
      for row in 0..<PackedColumns.blockSize {
        offsets[row] += before
        before += lengths[row] + 1
      }
      cachedBlock = block
      cachedOffsets = offsets
    }
    return (cachedOffsets[index - block * PackedColumns.blockSize], length)
  }

  private func offset(inOpen index: Int) -> Int {
    columns.value(1, at: index) + openStarts[index - columns.sealedBlocks * PackedColumns.blockSize]
  }

  /// Bytes that grow with the events.
  package var bytes: Int {
    columns.bytes + (blockStarts.capacity + openStarts.capacity) * MemoryLayout<Int>.stride
  }
}
