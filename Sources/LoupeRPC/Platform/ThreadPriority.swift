import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How far below the program the calling thread runs: the inspector's own threads (a
/// client's reader and writer, the accept loop, the hub's waker, the trace recorder) yield
/// the processor to the program's threads when both want it.
///
/// On Linux each thread has a nice value of its own: the calling thread is set to the
/// process's main thread's nice value plus `niceness` (at most 19). Nice is not a real-time
/// priority: a thread 10 levels below still gets about a tenth of a busy core, so a client is
/// slowed when the program keeps the processor busy, never starved. On Darwin a positive
/// `niceness` puts the thread in the *utility* quality-of-service class. Zero leaves the
/// thread as it was created. Failures are ignored: the thread then runs as before.
public enum ThreadPriority {
  /// Lowers the calling thread to `niceness` levels below the process's main thread.
  public static func lowerCurrentThread(by niceness: Int) {
    guard niceness > 0 else { return }
    #if os(Linux)
      errno = 0
      // The main thread's id is the process's.
      let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
      guard !(base == -1 && errno != 0) else { return }
      let target = min(19, Int(base) + niceness)
      // `who` 0 is the calling thread: on Linux the nice value belongs to each thread.
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Int32(target))
    #elseif canImport(Darwin)
      _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
    #endif
  }

  /// The calling thread's nice value (Linux); `nil` elsewhere or when it cannot be read.
  public static var currentNiceness: Int? {
    #if os(Linux)
      errno = 0
      let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      return value == -1 && errno != 0 ? nil : Int(value)
    #else
      return nil
    #endif
  }
}

/// Starts the threads a server runs beside the program: named (as `ps -L`, `top -H` and
/// `/proc/PID/task/*/comm` show them) and lowered ``ThreadPriority/lowerCurrentThread(by:)``.
public enum ServiceThread {
  /// Starts `body` on a new thread called `name` (at most 15 bytes are kept on Linux), running
  /// `niceness` levels below the process's main thread.
  public static func start(name: String, niceness: Int = 0, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
      Posix.blockSIGPIPEOnThisThread()
      nameCurrentThread(name)
      ThreadPriority.lowerCurrentThread(by: niceness)
      body()
    }
    thread.name = name
    thread.start()
  }

  #if os(Linux)
    /// `pthread_setname_np(3)` (the Glibc module does not export it), looked up once.
    private static let setName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
      guard let symbol = dlsym(nil, "pthread_setname_np") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()
  #endif

  /// Names the calling thread for the system's tools.
  static func nameCurrentThread(_ name: String) {
    #if os(Linux)
      let short = String(decoding: Array(name.utf8.prefix(15)), as: UTF8.self)
      _ = setName.map { setName in short.withCString { setName(pthread_self(), $0) } }
    #elseif canImport(Darwin)
      _ = pthread_setname_np(name)
    #endif
  }
}
