/// Columns of integers, one row per event, appended and never changed, kept in blocks of
/// ``blockSize`` rows: the last block plain, the others sealed into one byte array each, a
/// column at a time as zigzag varints (``Mode/delta``: each value minus the one before it).
/// A sealed column whose values (or steps) are all equal keeps no bytes at all: consecutive
/// `seq`s, consecutive lines. What ``SessionModel`` keeps per event instead of an entry of
/// 32 bytes (issue 33 item 17: a live session's index bounded at ~10 bytes an event).
///
/// Reading a sealed row decodes its block's column once (a few microseconds) and keeps it in a
/// small cache, so walking near one place, or a binary search inside a block, decodes once.
final package class PackedColumns {
  package enum Mode: Sendable { case plain, delta }

  /// One column of a sealed block: where its varints start, or the arithmetic it follows.
  private struct Sealed {
    /// The first row's value; `value(row) = base + row × step` when `stored` is false.
    var base: Int
    var step: Int
    var stored: Bool
    var start: Int32
  }

  private struct Block {
    var columns: [Sealed]
    var bytes: [UInt8]
  }

  // No dynamic exclusivity checks on the columns read and appended for every event (they
  // were ~10% of indexing a trace and of rebuilding a state): a column set belongs to one
  // session model, used from one thread at a time, and no method hands its storage out
  // `inout` to code that could re-enter it.
  static package let blockSize = 4096
  private let modes: [Mode]
  @exclusivity(unchecked) private var blocks: [Block] = []
  /// The rows after the sealed blocks, a column each.
  @exclusivity(unchecked) private var open: [[Int]]
  /// Decoded sealed columns: `(block, column)` → values, replaced in turn.
  @exclusivity(unchecked) private var cache: [(block: Int, column: Int, values: [Int])] = []
  @exclusivity(unchecked) private var nextSlot = 0
  /// Each column's last decoded block, read first (a scan stays in one block 4,096 rows).
  @exclusivity(unchecked) private var hotBlock: [Int]
  @exclusivity(unchecked) private var hotValues: [[Int]]
  static private let cacheSlots = 16

  package init(modes: [Mode]) {
    self.modes = modes
    open = modes.map { _ in [] }
    hotBlock = modes.map { _ in -1 }
    hotValues = modes.map { _ in [] }
    for column in open.indices { open[column].reserveCapacity(Self.blockSize) }
  }

  @exclusivity(unchecked) package private(set) var count = 0
  private var sealedCount: Int { blocks.count * Self.blockSize }

  /// Adds a row of two columns.
  package func append(_ a: Int, _ b: Int) {
    open[0].append(a)
    open[1].append(b)
    finishRow()
  }

  /// Adds a row of three columns.
  package func append(_ a: Int, _ b: Int, _ c: Int) {
    open[0].append(a)
    open[1].append(b)
    open[2].append(c)
    finishRow()
  }

  private func finishRow() {
    count += 1
    if open[0].count == Self.blockSize { seal() }
  }

  package func value(_ column: Int, at index: Int) -> Int {
    let sealed = sealedCount
    if index >= sealed { return open[column][index - sealed] }
    let block = index / Self.blockSize
    let row = index - block * Self.blockSize
    if hotBlock[column] == block { return hotValues[column][row] }
    let info = blocks[block].columns[column]
    if !info.stored { return info.base + row * info.step }
    let values = decoded(block, column)
    hotBlock[column] = block
    hotValues[column] = values
    return values[row]
  }

  /// Every row of sealed block `block` in `column`.
  package func values(_ column: Int, ofBlock block: Int) -> [Int] {
    let info = blocks[block].columns[column]
    if !info.stored { return (0..<Self.blockSize).map { info.base + $0 * info.step } }
    return decoded(block, column)
  }

  /// The first row of sealed block `block`'s column (no decoding).
  package func firstValue(_ column: Int, ofBlock block: Int) -> Int { blocks[block].columns[column].base }

  package var sealedBlocks: Int { blocks.count }

  /// The rows of `block` in `column` as an arithmetic sequence (`base + row × step`), when
  /// they are one.
  package func arithmetic(_ column: Int, ofBlock block: Int) -> (base: Int, step: Int)? {
    let info = blocks[block].columns[column]
    return info.stored ? nil : (info.base, info.step)
  }

  /// Bytes that grow with the rows: the sealed blocks and the open block's arrays (the cache
  /// of decoded blocks is bounded and not counted).
  package var bytes: Int {
    var total = blocks.capacity * MemoryLayout<Block>.stride
    for block in blocks { total += block.bytes.capacity + block.columns.capacity * MemoryLayout<Sealed>.stride }
    for column in open { total += column.capacity * MemoryLayout<Int>.stride }
    return total
  }

  private func decoded(_ block: Int, _ column: Int) -> [Int] {
    for slot in cache.indices where cache[slot].block == block && cache[slot].column == column { return cache[slot].values }
    let values = decode(block, column)
    if cache.count < Self.cacheSlots {
      cache.append((block, column, values))
    } else {
      cache[nextSlot] = (block, column, values)
      nextSlot = (nextSlot + 1) % Self.cacheSlots
    }
    return values
  }

  private func decode(_ block: Int, _ column: Int) -> [Int] {
    let info = blocks[block].columns[column]
    var values = [Int](repeating: 0, count: Self.blockSize)
    blocks[block].bytes.withUnsafeBufferPointer { bytes in
      var at = Int(info.start)
      var previous = info.base
      for row in 0..<Self.blockSize {
        let number = Varint.unzigzag(Varint.read(bytes, at: &at))
        switch modes[column] {
        case .plain: values[row] = number
        case .delta:
          previous = row == 0 ? info.base : previous + number
          values[row] = previous
        }
      }
    }
    return values
  }

  private func seal() {
    var bytes: [UInt8] = []
    var columns: [Sealed] = []
    for (column, values) in open.enumerated() {
      let first = values[0]
      let delta = modes[column] == .delta
      let step = values.count > 1 ? (delta ? values[1] - values[0] : 0) : 0
      let arithmetic = values.indices.allSatisfy { values[$0] == first + $0 * step }
      if arithmetic {
        columns.append(Sealed(base: first, step: step, stored: false, start: 0))
        continue
      }
      columns.append(Sealed(base: first, step: 0, stored: true, start: Int32(bytes.count)))
      var previous = first
      for value in values {
        let number = delta ? value - previous : value
        previous = value
        Varint.append(Varint.zigzag(number), to: &bytes)
      }
    }
    blocks.append(Block(columns: columns, bytes: bytes.withUnsafeBufferPointer { Array($0) }))
    for column in open.indices { open[column].removeAll(keepingCapacity: true) }
  }
}
