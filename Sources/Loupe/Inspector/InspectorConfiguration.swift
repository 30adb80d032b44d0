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
  /// How many events a client that does not keep up may fall behind the newest (it reads
  /// them from the shared history, so this costs no memory of its own); beyond it, and
  /// beyond what the history keeps, the oldest are dropped and reported as a `dropped` event.
  public var clientQueueCapacity: Int
  /// The most bytes of events a client may fall behind; past it events are dropped as past
  /// ``clientQueueCapacity``. Default 12 MB.
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
  /// The most socket clients (`LOUPE=unix:`) served at once; one more is refused with an
  /// error it can read (`-32001`, see `protocol/errors.md`) and closed. Each costs about two
  /// threads and five descriptors. `LOUPE_MAX_CLIENTS=N` sets it; default 32. A client is
  /// also refused when accepting it would leave the program fewer than ``reservedDescriptors``
  /// free descriptors.
  public var maxClients: Int
  /// Descriptors kept free for the program's own files: clients are refused before they use
  /// them. Default: 64, or an eighth of the process's limit (`ulimit -n`) when that is more.
  public var reservedDescriptors: Int?
  /// How many nice levels below the program's main thread the inspector's own threads run:
  /// each client's reader and writer, the socket's accept loop, the history's waker and the
  /// trace recorder. When the processor is busy, the program's threads go first, so clients
  /// (even hostile ones: huge batches, floods of broken input, hundreds of connections) take
  /// time from each other rather than from the program. Nice is not a real-time priority: a
  /// client is slowed, never starved. But the lowered threads compete with every other process
  /// of the same scheduling group (on a machine without autogroups, every process): on a busy
  /// machine clients are answered several times more slowly, and the events queued at exit may
  /// not all be written within ``exitFlushTimeout``. So it is off by default (0: the threads
  /// run at the program's priority); set it for programs whose timing matters more than their
  /// clients'. On Darwin any positive value means the *utility* quality-of-service class.
  /// `LOUPE_THREAD_NICE=N` sets it (0–19).
  public var threadNiceness: Int
  /// Whether tools may act on the program (CONTRACT §16): send actions (`loupe/send`,
  /// `loupe send`, the DAP's `send`, MCP's `loupe_send`) and replace a root store's state
  /// (`loupe/setState`). Off by default: then those requests are refused with `-32004`.
  /// `LOUPE_CONTROL=1` sets it; it is read at each request, so it can be turned on or off
  /// while clients are connected. Only for debug builds: whoever can connect can then drive
  /// the program (over TCP, only with the token).
  public var allowsControl: Bool = false

  public init(
    historyCapacity: Int = 20_000, clientQueueCapacity: Int = 20_000, maxEventsPerNotification: Int = 256,
    recordQueueCapacity: Int = 100_000, exitFlushTimeout: Duration = .seconds(2), maxFrameBodySize: Int = 16 << 20,
    historyByteLimit: Int = 12 << 20, clientQueueByteLimit: Int = 12 << 20, recordQueueByteLimit: Int = 32 << 20,
    maxClients: Int = 32, reservedDescriptors: Int? = nil, threadNiceness: Int = 0
  ) {
    self.threadNiceness = threadNiceness
    self.maxClients = maxClients
    self.reservedDescriptors = reservedDescriptors
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
