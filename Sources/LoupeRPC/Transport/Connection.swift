import Foundation
import LoupeCore

/// Something that hands a connection's writer thread low-priority frames to send whenever no
/// response is waiting (the inspector's per-client event queue is one).
///
/// The writer calls ``nextOutgoingBody()`` on its own thread, so encoding happens there, off
/// the program's threads. Return `nil` when there is nothing to send; call
/// ``Connection/wakeWriter()`` when there is something again.
public protocol OutgoingSource: AnyObject, Sendable {
  func nextOutgoingBody() -> [UInt8]?
}

/// A JSON-RPC connection over file descriptors (pipes, stdio, a Unix socket).
///
/// It owns two threads: a serial **reader** that reads, decodes frames and hands each body to
/// `onFrame` in order, and a **writer** that writes queued frames — started when there is
/// first something to write, so a peer that never sends a request costs one thread, not two.
/// With ``Options/waitsOnSharedThread`` (a server's accepted connections) the reader too
/// starts only when the peer first sends something, so an idle connection costs none.
/// Reading never waits on
/// writing: ``send(_:)`` only appends to a queue. Responses are written before anything the
/// ``OutgoingSource`` offers, so a flood of events cannot delay an answer.
///
/// SIGPIPE never reaches the process (Loupe's threads block it for themselves on Linux; Darwin
/// sets SO_NOSIGPIPE/F_SETNOSIGPIPE per descriptor, see Platform/Posix); a peer that vanishes (EOF, `EPIPE`, `ECONNRESET`) ends the
/// connection cleanly, and so does bad framing (``FrameError``) — never the process.
///
/// ```swift
/// let connection = Connection(input: socket, output: socket)
/// connection.start(onFrame: { body in
///   // runs on the reader thread, one body at a time
/// }, onClose: { reason in print("closed:", reason) })
/// connection.send(Message.notification(method: "initialized", params: [:]))
/// ```
public final class Connection: @unchecked Sendable {
  // Unchecked: every mutable property below is guarded by `condition`.

  public struct Options: Sendable {
    public var frameLimits: FrameDecoder.Limits
    /// Queued, unwritten response bytes beyond which the connection is closed (a peer that
    /// keeps sending requests but never reads the answers).
    public var maxQueuedBytes: Int
    public var readBufferSize: Int
    /// How many nice levels below the process's main thread the reader and writer threads run
    /// (``ThreadPriority/lowerCurrentThread(by:)``); 0 leaves them as created. A program's
    /// inspector sets it so that its clients' work yields to the program.
    public var threadNiceness: Int
    /// Wait for the peer's first bytes on the process's one shared waiting thread
    /// (`loupe.idle`) instead of a reader thread of its own, which starts only when the peer
    /// sends something: a server's accepted connections, so that clients that connect and stay
    /// silent cost no thread. A peer that closes before sending anything never gets one.
    public var waitsOnSharedThread: Bool

    public init(
      frameLimits: FrameDecoder.Limits = .default, maxQueuedBytes: Int = 32 << 20, readBufferSize: Int = 64 << 10,
      threadNiceness: Int = 0, waitsOnSharedThread: Bool = false
    ) {
      self.frameLimits = frameLimits
      self.maxQueuedBytes = maxQueuedBytes
      self.readBufferSize = readBufferSize
      self.threadNiceness = threadNiceness
      self.waitsOnSharedThread = waitsOnSharedThread
    }
  }

  /// Why a connection closed (the first reason wins).
  public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The peer closed its end between frames.
    case endOfInput
    /// The peer sent bytes that are not valid framing (or ended mid-frame).
    case framingError(FrameError)
    case readFailed(String)
    /// Writing failed with `EPIPE`/`ECONNRESET`: nobody is listening any more.
    case peerGone
    case writeFailed(String)
    /// The peer did not read its answers and too many piled up.
    case outputOverflow
    /// ``Connection/close()`` or ``Connection/finish()`` was called.
    case closedLocally

    public var description: String {
      switch self {
      case .endOfInput: "end of input"
      case .framingError(let error): "framing error: \(error)"
      case .readFailed(let message): "read failed: \(message)"
      case .peerGone: "peer gone"
      case .writeFailed(let message): "write failed: \(message)"
      case .outputOverflow: "too much unread output"
      case .closedLocally: "closed locally"
      }
    }
  }

  public let input: Int32
  public let output: Int32
  public let options: Options
  private let ownsDescriptors: Bool
  private let readerWake: (read: Int32, write: Int32)
  private let writerWake: (read: Int32, write: Int32)

  private let condition = NSCondition()
  private var outbox: [[UInt8]] = []
  private var outboxBytes = 0
  /// Someone asked the writer to look at the source again.
  private var wakePending = false
  /// What may happen next (see ``ConnectionLifecycle``), and what each side is doing.
  private var lifecycle = ConnectionLifecycle.open
  private var reader = ConnectionReader.notStarted
  private var writer = ConnectionWriter.notStarted
  private var reason: CloseReason?
  private var source: (any OutgoingSource)?
  private var onClose: (@Sendable (CloseReason) -> Void)?
  /// Set by ``start(source:onFrame:onEndOfInput:onClose:)``: the end of input stops reading only.
  private var halfCloses = false

  /// Wraps two descriptors (the same one twice for a socket). With `ownsDescriptors` they are
  /// closed when the connection ends.
  public init(input: Int32, output: Int32, ownsDescriptors: Bool = true, options: Options = Options()) throws {
    Posix.suppressSIGPIPE(output)
    self.input = input
    self.output = output
    self.ownsDescriptors = ownsDescriptors
    self.options = options
    readerWake = try Posix.makePipe()
    do {
      writerWake = try Posix.makePipe()
    } catch {
      Posix.closeDescriptor(readerWake.read)
      Posix.closeDescriptor(readerWake.write)
      throw error
    }
  }

  /// Starts the reader and writer threads.
  ///
  /// - Parameters:
  ///   - source: low-priority frames (events) the writer pulls when no response is queued.
  ///   - onFrame: called on the reader thread with each frame body, in order. It must not
  ///     block for long: reading waits for it.
  ///   - onEndOfInput: when given, the peer closing its end (between frames) stops reading
  ///     only: the connection keeps writing until ``finish()`` or ``close()`` (or a failed
  ///     write), and this is called on the reader thread after the last frame. For a peer that
  ///     writes all its requests, closes its end, then reads the answers (a half-closed pipe
  ///     or socket). Without it, the end of input ends the connection as ``finish()`` does.
  ///   - onClose: called once, on whichever thread ends last, after the descriptors are closed.
  public func start(
    source: (any OutgoingSource)? = nil,
    onFrame: @escaping @Sendable ([UInt8]) -> Void,
    onEndOfInput: (@Sendable () -> Void)? = nil,
    onClose: @escaping @Sendable (CloseReason) -> Void = { _ in }
  ) {
    condition.lock()
    guard reader == .notStarted, lifecycle != .aborted else {
      condition.unlock()
      return
    }
    reader = .waiting
    self.source = source
    self.onClose = onClose
    halfCloses = onEndOfInput != nil
    // Frames queued (or a source woken) before the start are written at once.
    let startsWriter = (!outbox.isEmpty || wakePending) && claimWriterStart()
    condition.unlock()
    if startsWriter { startWriter() }
    if options.waitsOnSharedThread, let watcher = InputWatcher.shared(niceness: options.threadNiceness) {
      watcher.watch(input: input, wake: readerWake.read) { [self] readiness in
        firstInput(readiness, onFrame: onFrame, onEndOfInput: onEndOfInput)
      }
    } else {
      startReader(first: nil, onFrame: onFrame, onEndOfInput: onEndOfInput)
    }
  }

  private func startReader(
    first: ArraySlice<UInt8>?, onFrame: @escaping @Sendable ([UInt8]) -> Void, onEndOfInput: (@Sendable () -> Void)?
  ) {
    condition.lock()
    reader = .reading
    condition.unlock()
    ServiceThread.start(name: "loupe.reader", niceness: options.threadNiceness) { [self] in
      if readLoop(first: first, onFrame: onFrame) == .endOfInput { onEndOfInput?() }
    }
  }

  /// On the shared waiting thread: the peer sent its first bytes, hung up, or the connection is
  /// closing. Reads once; only a peer that sent something gets a reader thread.
  private func firstInput(
    _ readiness: InputWatcher.Readiness, onFrame: @escaping @Sendable ([UInt8]) -> Void,
    onEndOfInput: (@Sendable () -> Void)?
  ) {
    guard readiness == .input else {
      _ = readerEnded(.closedLocally)
      return
    }
    var buffer = [UInt8](repeating: 0, count: min(4 << 10, options.readBufferSize))
    switch buffer.withUnsafeMutableBytes({ Posix.readAvailable(input, into: $0) }) {
    case .failure(let failure)?:
      _ = readerEnded(.readFailed(failure.description))
    case .success(0)?:
      if readerEnded(.endOfInput) == .endOfInput { onEndOfInput?() }
    case .success(let count)?:
      // A peer whose first bytes are not framing at all (a port scanner, a stray HTTP
      // request) is turned away here, without a thread.
      var decoder = FrameDecoder(limits: options.frameLimits)
      decoder.append(buffer[0..<count])
      if case .failed(let error) = decoder.next() {
        _ = readerEnded(.framingError(error))
        return
      }
      startReader(first: buffer[0..<count], onFrame: onFrame, onEndOfInput: onEndOfInput)
    case nil:  // nothing after all (interrupted): the reader waits as usual
      startReader(first: nil, onFrame: onFrame, onEndOfInput: onEndOfInput)
    }
  }

  /// Call with the lock held: whether the caller must start the writer (after unlocking,
  /// with ``startWriter()``). The writer starts once, when there is something to write.
  private func claimWriterStart() -> Bool {
    guard reader.isStarted, writer == .notStarted else { return false }
    writer = .running(idle: false)
    return true
  }

  private func startWriter() {
    ServiceThread.start(name: "loupe.writer", niceness: options.threadNiceness) { [self] in writeLoop() }
  }

  /// Queues one message.
  public func send(_ message: Message) { send(body: message.body) }

  /// Queues one frame with `body`. Never blocks; dropped if the connection is ending.
  public func send(body: [UInt8]) {
    let frame = FrameEncoder.frame(body)
    condition.lock()
    guard lifecycle.takesFrames else {
      condition.unlock()
      return
    }
    if outboxBytes + frame.count > options.maxQueuedBytes {
      condition.unlock()
      abort(.outputOverflow)
      return
    }
    outbox.append(frame)
    outboxBytes += frame.count
    condition.broadcast()
    let startsWriter = claimWriterStart()
    condition.unlock()
    if startsWriter { startWriter() }
  }

  /// Tells the writer the source may have something to send.
  public func wakeWriter() {
    condition.lock()
    wakePending = true
    condition.broadcast()
    let startsWriter = lifecycle.takesFrames && claimWriterStart()
    condition.unlock()
    if startsWriter { startWriter() }
  }

  /// Stops reading, writes what is already queued (responses, and with `drainingSource` also
  /// everything the source still has, until it returns `nil`), then closes. What `exit` does.
  ///
  /// Stop the source from taking anything new first when draining it, or a source that keeps
  /// filling up keeps the connection open.
  public func finish(drainingSource: Bool = false) {
    condition.lock()
    lifecycle.finish(drainingSource: drainingSource)
    condition.broadcast()
    if lifecycle != .closed { latch(readerWake.write) }
    // Draining needs the writer; with nothing to write, a writer never started is done.
    let startsWriter = lifecycle == .finishing(drainsSource: true) && source != nil && claimWriterStart()
    if reader.isStarted { writer.endIfNotStarted() }
    let finished = endIfDone()
    condition.unlock()
    if startsWriter { startWriter() }
    finished?()
  }

  /// Closes now: both threads stop, queued output is discarded.
  public func close() { abort(.closedLocally) }

  private func abort(_ why: CloseReason) {
    condition.lock()
    if reason == nil { reason = why }
    lifecycle.abort()
    condition.broadcast()
    if reader == .notStarted { reader = .done(hadThread: false) }
    writer.endIfNotStarted()
    if lifecycle != .closed {
      latch(readerWake.write)
      latch(writerWake.write)
    }
    let finished = endIfDone()
    condition.unlock()
    finished?()
  }

  /// Whether the connection has ended (both threads stopped).
  public var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return lifecycle == .closed
  }

  /// Whether a reader thread was started (with ``Options/waitsOnSharedThread``, only once
  /// the peer sent something).
  var hasReaderThread: Bool {
    condition.lock()
    defer { condition.unlock() }
    return reader.hasHadThread
  }

  /// Whether a writer thread was started (only once there was something to write).
  var hasWriterThread: Bool {
    condition.lock()
    defer { condition.unlock() }
    return writer.hasHadThread
  }

  /// Whether frames may still arrive: started, and neither the end of input, ``finish()``
  /// nor ``close()`` has stopped the reader.
  public var isReading: Bool {
    condition.lock()
    defer { condition.unlock() }
    return (reader == .waiting || reader == .reading) && lifecycle.takesFrames
  }

  /// Waits until everything queued and everything the source has is written, or the
  /// connection ends, or `timeout` passes. Returns whether it was flushed (or ended).
  @discardableResult
  public func flush(timeout: Duration) -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    // A writer never started has written nothing and was never told of anything to send.
    if reader.isStarted, writer == .notStarted, outbox.isEmpty, !wakePending { return true }
    wakePending = true
    condition.broadcast()
    while !(lifecycle == .closed || writer.isDone || (writer == .running(idle: true) && !wakePending && outbox.isEmpty))
    {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }

  // MARK: - Threads

  /// Reads (after the bytes `first`, already read) until the input ends or the connection
  /// stops; returns why it stopped.
  private func readLoop(first: ArraySlice<UInt8>?, onFrame: @Sendable ([UInt8]) -> Void) -> CloseReason {
    var decoder = FrameDecoder(limits: options.frameLimits)
    // Small until the peer sends much: an idle connection costs little memory.
    var buffer = [UInt8](repeating: 0, count: min(4 << 10, options.readBufferSize))
    var why: CloseReason = .closedLocally
    var decodesFirst = false
    if let first {
      decoder.append(first)
      decodesFirst = true
    }
    reading: while true {
      if decodesFirst {
        decodesFirst = false
      } else {
        guard Posix.wait(for: input, events: Int16(POLLIN), orWake: readerWake.read) else { break }
        guard let result = buffer.withUnsafeMutableBytes({ Posix.readAvailable(input, into: $0) }) else { continue }
        switch result {
        case .failure(let failure):
          why = .readFailed(failure.description)
          break reading
        case .success(0):
          why = decoder.isAtFrameBoundary ? .endOfInput : .framingError(.truncatedFrame)
          break reading
        case .success(let count):
          decoder.append(buffer[0..<count])
          if count == buffer.count, buffer.count < options.readBufferSize {
            buffer = [UInt8](repeating: 0, count: min(buffer.count * 4, options.readBufferSize))
          }
        }
      }
      while true {
        switch decoder.next() {
        case .frame(let body):
          onFrame(body)
          // A peer that is gone (its answers cannot be written) gets none of its buffered
          // frames handled; one that does not read its answers is not read from either.
          if !waitForRoomToAnswer() { break reading }
        case .needMoreData:
          continue reading
        case .failed(let error):
          why = .framingError(error)
          break reading
        }
      }
    }
    return readerEnded(why)
  }

  /// The reader stopped (its thread, or the shared waiting thread before there was one):
  /// records `why` (unless the connection already ended for another reason) and ends the
  /// connection when the writer is done too. Returns `why`.
  private func readerEnded(_ why: CloseReason) -> CloseReason {
    condition.lock()
    if reason == nil { reason = why }
    reader.end()
    // A half-closing peer still reads what is written to it, until ``finish()``.
    if !(halfCloses && why == .endOfInput) { lifecycle.finish(drainingSource: false) }
    if !lifecycle.takesFrames { writer.endIfNotStarted() }  // nothing was ever written, and nothing will be
    condition.broadcast()
    let finished = endIfDone()
    condition.unlock()
    finished?()
    return why
  }

  /// Waits while the unwritten answers hold more than half of ``Options/maxQueuedBytes`` (a
  /// peer that sends requests but reads its answers slowly, or not at all), so that they stay
  /// bounded without closing a peer that does read. Returns whether to go on reading.
  private func waitForRoomToAnswer() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while outboxBytes > options.maxQueuedBytes / 2, lifecycle.takesFrames {
      condition.wait()
    }
    return lifecycle.takesFrames
  }

  private func writeLoop() {
    var why: CloseReason?
    writing: while true {
      condition.lock()
      while outbox.isEmpty && !wakePending && lifecycle.takesFrames {
        writer = .running(idle: true)
        condition.broadcast()
        condition.wait()
      }
      writer = .running(idle: false)
      if lifecycle == .aborted {
        condition.unlock()
        break
      }
      if !outbox.isEmpty {
        let frames = outbox
        outbox = []
        outboxBytes = 0
        condition.broadcast()  // the reader may wait for room
        condition.unlock()
        let bytes = frames.count == 1 ? frames[0] : Array(frames.joined())
        if let failure = write(bytes) {
          why = failure
          break writing
        }
        continue
      }
      let draining = lifecycle == .finishing(drainsSource: true)
      if lifecycle == .finishing(drainsSource: false) {
        condition.unlock()
        break
      }
      wakePending = false
      let source = self.source
      condition.unlock()
      guard let body = source?.nextOutgoingBody() else {
        if draining { break writing }
        continue
      }
      if let failure = write(FrameEncoder.frame(body)) {
        why = failure
        break writing
      }
      // The source may have more: look again (after any response that arrived meanwhile).
      condition.lock()
      wakePending = true
      condition.unlock()
    }
    condition.lock()
    if reason == nil { reason = why ?? .closedLocally }
    writer = .done(hadThread: true)
    // A writer that cannot write ends the reader too, at once: nobody is listening, so the
    // frames it has buffered are not handled.
    if why != nil {
      lifecycle.abort()
      if lifecycle != .closed { latch(readerWake.write) }
    }
    condition.broadcast()
    let finished = endIfDone()
    condition.unlock()
    finished?()
  }

  /// Writes `bytes`; the close reason when that failed.
  private func write(_ bytes: [UInt8]) -> CloseReason? {
    let outcome = bytes.withUnsafeBytes { Posix.writeAll(output, $0, orWake: writerWake.read) }
    switch outcome {
    case .written: return nil
    case .abandoned: return .closedLocally
    case .peerGone: return .peerGone
    case .failed(let failure): return .writeFailed(failure.description)
    }
  }

  // MARK: - Ending

  /// Call with the lock held. When both threads are done, closes the descriptors and returns
  /// the `onClose` call to make after unlocking.
  private func endIfDone() -> (() -> Void)? {
    guard reader.isDone, writer.isDone, lifecycle != .closed else { return nil }
    lifecycle = .closed
    if ownsDescriptors {
      Posix.closeDescriptor(input)
      if output != input { Posix.closeDescriptor(output) }
    }
    for fd in [readerWake.read, readerWake.write, writerWake.read, writerWake.write] { Posix.closeDescriptor(fd) }
    outbox = []
    source = nil
    condition.broadcast()
    let onClose = self.onClose
    self.onClose = nil
    let reason = self.reason ?? .closedLocally
    return { onClose?(reason) }
  }

  /// Makes a wake pipe readable for good (call with the lock held, before it is closed).
  private func latch(_ fd: Int32) {
    var byte: UInt8 = 1
    _ = Posix.write(fd, &byte, 1)
  }

  deinit {
    condition.lock()
    if lifecycle != .closed {
      lifecycle = .closed
      if ownsDescriptors {
        Posix.closeDescriptor(input)
        if output != input { Posix.closeDescriptor(output) }
      }
      for fd in [readerWake.read, readerWake.write, writerWake.read, writerWake.write] { Posix.closeDescriptor(fd) }
    }
    condition.unlock()
  }
}
