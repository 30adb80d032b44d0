#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Signal dispositions of the `loupe` process itself (a program of our own, not a library
/// linked into someone else's).
enum CommandSignals {
  /// Ignores SIGPIPE for the `loupe` process: its stdout is often a pipe (`loupe show … |
  /// head`) and its protocol streams are pipes to an editor, and a pipe cannot take
  /// `MSG_NOSIGNAL` (Linux) or `SO_NOSIGPIPE` (Darwin). A write to a reader that left is then
  /// an `EPIPE` that ``Output`` notes and stops on. The library (`Loupe`, `LoupeRPC`) never
  /// does this: it protects its own writes per socket or per thread.
  static func ignoreBrokenPipe() {
    _ = signal(SIGPIPE, SIG_IGN)
  }
}
