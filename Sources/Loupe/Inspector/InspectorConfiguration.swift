/// Sizes and timeouts of the inspector. Set them before the inspector starts
/// (``Inspector/configuration``).
public struct InspectorConfiguration: Sendable, Hashable {
  /// Recent events kept for clients that subscribe with `history: true`.
  ///
  /// This is what guarantees that a client launched together with the program (`loupe attach`)
  /// sees every event from the start: the program's startup burst waits here until the client
  /// subscribes. The default (20 000 events, a few MB of typical events, and never more than
  /// ``historyByteLimit``) covers the startup of any reasonable program; raise it for
  /// programs that emit more before a client can connect.
  public var historyCapacity: Int
  /// The most bytes the recent events may hold (as estimated from their strings and values):
  /// past it the oldest are evicted too, so that large events (a whole state inserted at a
  /// new identity) cannot make the buffer grow with their size. Default 12 MB.
  public var historyByteLimit: Int
  /// Live events queued per client that does not keep up; beyond it events are dropped and
  /// reported as a `dropped` event.
  public var clientQueueCapacity: Int
  /// The most bytes a client's queued live events may hold; past it events are dropped as
  /// past ``clientQueueCapacity``. Default 12 MB.
  public var clientQueueByteLimit: Int
  /// Most events per `loupe/events` notification.
  public var maxEventsPerNotification: Int
  /// Events queued for a trace file (`LOUPE_RECORD`) before they are dropped.
  public var recordQueueCapacity: Int
  /// The most bytes the events queued for a trace file may hold (as estimated from their
  /// strings and values); past it events are dropped as past ``recordQueueCapacity``, so that
  /// large events on a slow disk cannot make the queue grow with their size. Default 32 MB
  /// (about 100,000 typical events: the count is what bounds those).
  public var recordQueueByteLimit: Int
  /// The longest the process may take at exit to finish with its clients: answer requests
  /// already received, let a client launched with the program that has not subscribed yet
  /// do so (and get the whole history), and write what is queued for clients and trace files.
  /// `LOUPE_EXIT_TIMEOUT=SECONDS` sets it from the environment; zero writes only what is
  /// ready at once.
  public var exitFlushTimeout: Duration
  /// The largest frame body accepted from a client.
  public var maxFrameBodySize: Int

  public init(
    historyCapacity: Int = 20_000, clientQueueCapacity: Int = 20_000, maxEventsPerNotification: Int = 256,
    recordQueueCapacity: Int = 100_000, exitFlushTimeout: Duration = .seconds(2), maxFrameBodySize: Int = 16 << 20,
    historyByteLimit: Int = 12 << 20, clientQueueByteLimit: Int = 12 << 20, recordQueueByteLimit: Int = 32 << 20
  ) {
    self.historyCapacity = historyCapacity
    self.historyByteLimit = historyByteLimit
    self.clientQueueCapacity = clientQueueCapacity
    self.clientQueueByteLimit = clientQueueByteLimit
    self.maxEventsPerNotification = maxEventsPerNotification
    self.recordQueueCapacity = recordQueueCapacity
    self.recordQueueByteLimit = recordQueueByteLimit
    self.exitFlushTimeout = exitFlushTimeout
    self.maxFrameBodySize = maxFrameBodySize
  }
}
