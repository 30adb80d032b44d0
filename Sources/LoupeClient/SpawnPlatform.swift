#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The platform calls of starting a program, apart from the transport's (`LoupeRPC`'s `Posix`).
package enum SpawnPlatform {
  /// Makes a spawned program start with only descriptors 0, 1 and 2: not the pipes, sockets
  /// and files of this process (nor those of a library that forgot close-on-exec), which
  /// would otherwise stay open as long as the program runs — a pipe's reader would never see
  /// its end. Uses `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run
  /// time; without it, close-on-exec is all there is.
  package static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    #if canImport(Glibc)
      typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
      _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    #endif
  }
}
