#if canImport(Darwin) || !LOUPE_PTHREAD_LOCK
  import Synchronization
#endif

/// The memory orderings Loupe's atomics use (`Synchronization`'s names, whose types need
/// macOS 15 / iOS 18).
package enum AtomicOrdering: Sendable {
  case relaxed, acquiring, releasing, acquiringAndReleasing
}

/// An `Int` read and written atomically, with `Synchronization.Atomic`'s API, for the
/// deployment targets `Atomic` does not reach.
///
/// Linux: `Atomic<Int>` itself, as a typealias (an idle store's one relaxed load stays one load).
/// Darwin: `Atomic<Int>` on macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2 and later
/// (`if #available`, chosen once at creation), an `os_unfair_lock`ed `Int` before that.
#if !canImport(Darwin) && !LOUPE_PTHREAD_LOCK
  package typealias AtomicInt = Atomic<Int>
  package typealias AtomicBool = Atomic<Bool>
#else
  package struct AtomicInt: ~Copyable, Sendable {
    @usableFromInline let cell: AtomicIntCell

    package init(_ value: Int) {
      #if canImport(Darwin)
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
          cell = NativeAtomicIntCell(value)
          return
        }
      #endif
      cell = LockedIntCell(value)
    }

    @inlinable package func load(ordering: AtomicOrdering) -> Int { cell.load() }
    @inlinable package func store(_ value: Int, ordering: AtomicOrdering) { cell.store(value) }
    @inlinable @discardableResult
    package func add(_ operand: Int, ordering: AtomicOrdering) -> (oldValue: Int, newValue: Int) { cell.add(operand) }
    @inlinable package func exchange(_ value: Int, ordering: AtomicOrdering) -> Int { cell.exchange(value) }
  }

/// A `Bool` read and written atomically (an ``AtomicInt`` holding 0 or 1).
package struct AtomicBool: ~Copyable, Sendable {
  @usableFromInline let storage: AtomicInt

  @inlinable package init(_ value: Bool) { storage = AtomicInt(value ? 1 : 0) }

  @inlinable @inline(__always) package func load(ordering: AtomicOrdering) -> Bool {
    storage.load(ordering: ordering) != 0
  }

  @inlinable @inline(__always) package func store(_ value: Bool, ordering: AtomicOrdering) {
    storage.store(value ? 1 : 0, ordering: ordering)
  }

  /// Stores `value`; returns the value before.
  @inlinable @inline(__always) package func exchange(_ value: Bool, ordering: AtomicOrdering) -> Bool {
    storage.exchange(value ? 1 : 0, ordering: ordering) != 0
  }
}
#endif

#if canImport(Darwin) || LOUPE_PTHREAD_LOCK
  /// What an ``AtomicInt`` holds where `Atomic` may be missing: sequentially consistent
  /// operations (at least as strong as any ordering asked for).
  @usableFromInline class AtomicIntCell: @unchecked Sendable {
    @usableFromInline func load() -> Int { fatalError("abstract") }
    @usableFromInline func store(_ value: Int) { fatalError("abstract") }
    @usableFromInline func add(_ operand: Int) -> (oldValue: Int, newValue: Int) { fatalError("abstract") }
    @usableFromInline func exchange(_ value: Int) -> Int { fatalError("abstract") }
  }

  /// An `Int` behind a ``Lock`` (os_unfair_lock on Darwin).
  @usableFromInline final class LockedIntCell: AtomicIntCell, @unchecked Sendable {
    let value: Lock<Int>
    init(_ initial: Int) { value = Lock(initial) }
    @usableFromInline override func load() -> Int { value.withLock { $0 } }
    @usableFromInline override func store(_ new: Int) { value.withLock { $0 = new } }
    @usableFromInline override func add(_ operand: Int) -> (oldValue: Int, newValue: Int) {
      value.withLock { current in
        let old = current
        current = old &+ operand
        return (old, current)
      }
    }
    @usableFromInline override func exchange(_ new: Int) -> Int {
      value.withLock { current in
        let old = current
        current = new
        return old
      }
    }
  }
#endif

#if canImport(Darwin)
  /// `Atomic<Int>` where the OS has it.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @usableFromInline final class NativeAtomicIntCell: AtomicIntCell, @unchecked Sendable {
    let atomic: Atomic<Int>
    init(_ initial: Int) { atomic = Atomic(initial) }
    @usableFromInline override func load() -> Int { atomic.load(ordering: .sequentiallyConsistent) }
    @usableFromInline override func store(_ new: Int) { atomic.store(new, ordering: .sequentiallyConsistent) }
    @usableFromInline override func add(_ operand: Int) -> (oldValue: Int, newValue: Int) {
      atomic.add(operand, ordering: .sequentiallyConsistent)
    }
    @usableFromInline override func exchange(_ new: Int) -> Int { atomic.exchange(new, ordering: .sequentiallyConsistent) }
  }
#endif
