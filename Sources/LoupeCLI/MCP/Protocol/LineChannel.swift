import Foundation
import LoupeCore

/// MCP's stdio transport: newline-delimited JSON-RPC messages, one UTF-8 message per line.
///
/// A reader thread of its own reads the input descriptor and hands each line (without its
/// line break, a trailing `\r` removed) to `onLine`, in order; `onEnd` is called once at the end
/// of input. Writing goes through a serial queue, so reading never waits on a client that is
/// slow to read its answers. A line longer than ``maximumLineLength`` is not kept in memory:
/// it is skipped to its end and reported with `onOversizedLine` (the server answers it with a
/// parse error and goes on).
final class LineChannel: Sendable {
  /// 16 MiB: far above any request an MCP client sends.
  static let maximumLineLength = 16 << 20

  private let input: Int32
  private let output: Int32
  private let writes = DispatchQueue(label: "loupe.mcp.write")
  private struct State {
    var outputBroken = false
  }
  private let state = Lock(State())

  init(input: Int32, output: Int32) {
    self.input = input
    self.output = output
  }

  /// Starts the reader thread.
  func start(
    onLine: @escaping @Sendable ([UInt8]) -> Void,
    onOversizedLine: @escaping @Sendable (Int) -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    let input = self.input
    let thread = Thread {
      var splitter = LineSplitter(maximumLength: Self.maximumLineLength)
      var buffer = [UInt8](repeating: 0, count: 64 << 10)
      while true {
        let count = buffer.withUnsafeMutableBytes { LibC.read(input, $0.baseAddress, $0.count) }
        if count < 0, LibC.errno == LibC.interrupted { continue }
        if count <= 0 { break }
        splitter.feed(buffer[0..<count]) { item in
          switch item {
          case .line(let line): onLine(line)
          case .oversized(let length): onOversizedLine(length)
          }
        }
      }
      splitter.finish { item in
        switch item {
        case .line(let line): onLine(line)
        case .oversized(let length): onOversizedLine(length)
        }
      }
      onEnd()
    }
    thread.name = "loupe.mcp.read"
    thread.start()
  }

  /// Queues `bytes` and a line break for writing. A message must not contain a line break
  /// (compact JSON never does).
  func send(_ bytes: [UInt8]) {
    writes.async { [self] in
      guard !state.withLock({ $0.outputBroken }) else { return }
      var line = bytes
      line.append(0x0A)
      var offset = 0
      while offset < line.count {
        let written = line.withUnsafeBytes { LibC.write(output, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
          if LibC.isRetryable(LibC.errno) { continue }
          state.withLock { $0.outputBroken = true }  // the client is gone (EPIPE)
          return
        }
        offset += written
      }
    }
  }

  /// Waits until every queued message is written (or writing failed).
  func drain() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      writes.async { continuation.resume() }
    }
  }
}

/// Splits bytes into lines (a pure state machine: tested by feeding it any split of the input).
struct LineSplitter {
  enum Item: Equatable {
    case line([UInt8])
    /// A line over the limit, skipped; its length.
    case oversized(Int)
  }

  let maximumLength: Int
  private var pending: [UInt8] = []
  /// Bytes of the current line skipped because it is over the limit (`nil`: not skipping).
  private var skipped: Int?

  init(maximumLength: Int) {
    self.maximumLength = maximumLength
  }

  mutating func feed(_ bytes: ArraySlice<UInt8>, _ emit: (Item) -> Void) {
    var start = bytes.startIndex
    while start < bytes.endIndex {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
        take(bytes[start...])
        return
      }
      take(bytes[start..<newline])
      end(emit)
      start = newline + 1
    }
  }

  /// The end of input: a last line without its line break still counts.
  mutating func finish(_ emit: (Item) -> Void) {
    if !pending.isEmpty || skipped != nil { end(emit) }
  }

  private mutating func take(_ bytes: ArraySlice<UInt8>) {
    if let count = skipped {
      skipped = count + bytes.count
    } else if pending.count + bytes.count > maximumLength {
      skipped = pending.count + bytes.count
      pending = []
    } else {
      pending.append(contentsOf: bytes)
    }
  }

  private mutating func end(_ emit: (Item) -> Void) {
    if let count = skipped {
      emit(.oversized(count))
      skipped = nil
      return
    }
    if pending.last == 0x0D { pending.removeLast() }
    let line = pending
    pending = []
    // Blank lines between messages are ignored.
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    emit(.line(line))
  }
}
