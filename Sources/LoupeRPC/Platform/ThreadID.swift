#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which thread is which: the calling thread's `pthread_t`, comparable and `Sendable`.
///
/// The server session remembers the thread inside ``ServerSession/receive(_:)``, so a program
/// that exits from within a request (on the reader thread) is not made to wait for itself.
struct ThreadID: Sendable, Hashable {
  private let raw: UInt

  static var current: ThreadID {
    #if canImport(Darwin)
      ThreadID(raw: UInt(bitPattern: pthread_self()))
    #else
      ThreadID(raw: UInt(pthread_self()))
    #endif
  }
}
