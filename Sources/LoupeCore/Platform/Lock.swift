#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if !canImport(Darwin) && !LOUPE_PTHREAD_LOCK
  import Synchronization
#endif

/// A value guarded by a lock, with `Synchronization.Mutex`'s API (`Lock(value)`,
/// `withLock { $0… }`), for the deployment targets `Mutex` does not reach (macOS 14, iOS 17,
/// tvOS 17, watchOS 10, visionOS 1; `Mutex` needs macOS 15 / iOS 18).
///
/// - Darwin: `os_unfair_lock` (os/lock.h, macOS 10.12+), in one allocation with the value
///   (a `ManagedBuffer`, so the lock has a stable address, as os_unfair_lock requires).
/// - Linux: `Synchronization.Mutex` itself (no OS floor there), as a typealias: inline, no
///   allocation and no call into libc on the hot path (BENCHMARKS.md, issue 29). Built with
///   `-Xswiftc -DLOUPE_PTHREAD_LOCK`, Linux uses the Darwin shape over `pthread_mutex_t`
///   instead, which is how that code path is built and tested here.
/// - Elsewhere (Musl, …) with `LOUPE_PTHREAD_LOCK`: `pthread_mutex_t`.
#if !canImport(Darwin) && !LOUPE_PTHREAD_LOCK
  /// Linux: `Synchronization.Mutex` itself, so the hot paths are exactly what they were (a
  /// wrapper struct forwarding `withLock` measured ~1,300 instructions more per attached emit:
  /// BENCHMARKS.md, issue 29).
  package typealias Lock<Value> = Mutex<Value>
#else
  package struct Lock<Value>: ~Copyable, @unchecked Sendable {
    // Unchecked: the value is reached only with the lock held, and goes in and out `sending`.
    @usableFromInline let storage: LockStorage<Value>

    @inlinable package init(_ initialValue: consuming sending Value) {
      storage = LockStorage.make(initialValue)
    }

    /// Runs `body` with the value, the lock held.
    @inlinable @inline(__always)
    package borrowing func withLock<Result, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      let lock = storage.withUnsafeMutablePointerToElements { $0 }
      let value = storage.withUnsafeMutablePointerToHeader { $0 }
      LockPrimitive.lock(lock)
      defer { LockPrimitive.unlock(lock) }
      return try body(&value.pointee)
    }
  }
#endif

#if canImport(Darwin) || LOUPE_PTHREAD_LOCK
  /// The value (the header) and the lock (the one element) in one object.
  @usableFromInline final class LockStorage<Value>: ManagedBuffer<Value, LockPrimitive.Primitive> {
    @inlinable static func make(_ value: Value) -> LockStorage<Value> {
      let buffer = create(minimumCapacity: 1) { _ in value }
      let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
      storage.withUnsafeMutablePointerToElements { LockPrimitive.initialize($0) }
      return storage
    }

    deinit {
      withUnsafeMutablePointerToElements { LockPrimitive.destroy($0) }
    }
  }

  /// The lock a ``Lock`` holds: `os_unfair_lock` on Darwin, `pthread_mutex_t` elsewhere.
  @usableFromInline enum LockPrimitive {
    #if canImport(Darwin)
      @usableFromInline typealias Primitive = os_unfair_lock

      @inlinable static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
        lock.initialize(to: os_unfair_lock())  // OS_UNFAIR_LOCK_INIT is all zeros
      }
      @inlinable static func destroy(_ lock: UnsafeMutablePointer<Primitive>) { lock.deinitialize(count: 1) }
      @inlinable static func lock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_lock(lock) }
      @inlinable static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_unlock(lock) }
    #else
      @usableFromInline typealias Primitive = pthread_mutex_t

      @inlinable static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
        lock.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(lock, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
      }
      @inlinable static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
      }
      @inlinable static func lock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_lock(lock) }
      @inlinable static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_unlock(lock) }
    #endif
  }
#endif
