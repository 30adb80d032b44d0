#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import LoupeCore
import LoupeRPC

/// The platform calls of starting, signalling and reaping a program, apart from the
/// transport's (`LoupeRPC`'s `Posix`). Only the tools start programs (CONTRACT §14): on iOS,
/// tvOS, watchOS and visionOS ``spawn(_:arguments:environment:stdin:stdout:stderr:directory:)``
/// reports that it cannot.
package enum ProgramSpawn {
  /// Starts `executable` (searched in PATH, like a shell) with `arguments` (argv, the name
  /// first) and `environment` (`NAME=value` strings), its stdin and stdout on the given
  /// descriptors, its stderr on `stderr` or loupe's own, in `directory` when given, with an
  /// empty signal mask and default dispositions, and no descriptor of this process but 0, 1
  /// and 2. Returns the pid, or why not.
  package static func spawn(
    _ executable: String, arguments: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32?,
    directory: String?
  ) -> Result<Int32, SpawnFailure> {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      return .failure(.unsupported("this platform does not let a program start another"))
    #else
      // Darwin's spawn.h: `typedef void *posix_spawn_file_actions_t` (and posix_spawnattr_t),
      // imported as optional pointers that posix_spawn_*_init fills in; Glibc's are structs.
      #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
      #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
      posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO)
      if let stderr {
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
      } else {
        keepStandardError(&actions)
      }
      if let directory {
        guard addChdir(&actions, directory) else {
          return .failure(.unsupported("this system cannot set a spawned program's directory"))
        }
      }
      closeOtherDescriptors(&actions)

      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var noSignals = sigset_t()
      sigemptyset(&noSignals)
      posix_spawnattr_setsigmask(&attributes, &noSignals)
      var defaults = sigset_t()
      sigfillset(&defaults)
      sigdelset(&defaults, SIGKILL)
      sigdelset(&defaults, SIGSTOP)
      posix_spawnattr_setsigdefault(&attributes, &defaults)
      // A process group of its own (pgid = its pid), so that ending it ends what it started
      // too (`sh -c "…; sleep 600"` must not leave the sleep holding loupe's pipes): spawn.h,
      // POSIX_SPAWN_SETPGROUP with posix_spawnattr_setpgroup(0) on both Glibc and Darwin.
      posix_spawnattr_setpgroup(&attributes, 0)
      posix_spawnattr_setflags(
        &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP | closeOnExecDefault))

      let argv = arguments.map { strdup($0) } + [nil]
      let envp = environment.map { strdup($0) } + [nil]
      defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
      }
      var pid: pid_t = 0
      let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
      guard result == 0 else { return .failure(.system(LibC.message(result))) }
      return .success(pid)
    #endif
  }

  package enum SpawnFailure: Error {
    case unsupported(String)
    case system(String)
  }

  /// `kill(2)` to the process group `spawn` made the program lead: the program and every
  /// process it started that stayed in its group. Call it only while the program is not yet
  /// reaped, so that its pid, and so its group id, cannot have been reused.
  package static func send(_ signal: Int32, toGroupOf pid: Int32) {
    _ = kill(-pid, signal)
  }

  /// `waitpid(2)` until `pid` ends; its raw status, or `nil` when someone else reaped it.
  package static func waitForExit(_ pid: Int32) -> Int32? {
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 {
      if LibC.errno != LibC.interrupted { return nil }
    }
    return raw
  }

  #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    #if canImport(Darwin)
      typealias FileActions = posix_spawn_file_actions_t?
      /// spawn.h: `#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000` (Apple's extension): every
      /// descriptor not named by a file action is closed in the child.
      private static let closeOnExecDefault = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
      typealias FileActions = posix_spawn_file_actions_t
      private static let closeOnExecDefault: Int32 = 0
    #endif

    /// With `POSIX_SPAWN_CLOEXEC_DEFAULT` an inherited stderr needs a file action of its own
    /// (`posix_spawn_file_actions_addinherit_np`, spawn.h, macOS 10.7+); elsewhere it is kept.
    private static func keepStandardError(_ actions: inout FileActions) {
      #if canImport(Darwin)
        posix_spawn_file_actions_addinherit_np(&actions, STDERR_FILENO)
      #endif
    }

    /// `posix_spawn_file_actions_addchdir_np`: declared in Darwin's spawn.h (macOS 10.15+);
    /// glibc 2.29+ has it, looked up at run time (the Glibc module does not import it).
    private static func addChdir(_ actions: inout FileActions, _ directory: String) -> Bool {
      #if canImport(Darwin)
        return posix_spawn_file_actions_addchdir_np(&actions, directory) == 0
      #else
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = Posix.lookUpSymbol("posix_spawn_file_actions_addchdir_np") else { return false }
        return unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory) == 0
      #endif
    }

    /// Makes a spawned program start with only descriptors 0, 1 and 2: not the pipes, sockets
    /// and files of this process (nor those of a library that forgot close-on-exec), which
    /// would otherwise stay open as long as the program runs — a pipe's reader would never see
    /// its end. Darwin: `POSIX_SPAWN_CLOEXEC_DEFAULT` (set with the flags). Glibc:
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time; without
    /// it, close-on-exec is all there is.
    private static func closeOtherDescriptors(_ actions: inout FileActions) {
      #if canImport(Glibc)
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = Posix.lookUpSymbol("posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
      #endif
    }
  #endif
}
