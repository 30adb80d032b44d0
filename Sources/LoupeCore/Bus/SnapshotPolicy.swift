import Foundation

/// When stores emit `state.snapshot` events (CONTRACT §10): the whole rendered state of a
/// root store, from which a reader rebuilds any store's state at any `seq`.
///
/// A root store's first snapshot comes with its creation (right after its `store.created`).
/// After that, a root store takes another one after an action (of the root store or of any of
/// its scoped stores) once ``actions`` actions have been processed since its last snapshot, or
/// once the changes reported since then add up to ``bytes`` bytes, whichever comes first. So a
/// reader rebuilding a state never applies more than about that many changes.
///
/// Bytes are counted as the inspector's buffers count an event's size: the UTF-8 bytes of the
/// changes' strings plus a fixed overhead per value (about what they take in memory, and
/// about what a rebuild applies).
///
/// Only a bus with a sink attached pays anything: with none, a store counts nothing.
///
/// ```swift
/// bus.snapshotPolicy = SnapshotPolicy(actions: 100)      // more often
/// bus.snapshotPolicy = .off                              // none at all (golden tests)
/// ```
///
/// From the environment (``EventBus/shared``): `LOUPE_SNAPSHOT_ACTIONS=N` and
/// `LOUPE_SNAPSHOT_BYTES=N` (`0` turns that trigger off).
public struct SnapshotPolicy: Sendable, Hashable {
  /// Actions between two snapshots of a root store; `0` takes none by count.
  public var actions: Int
  /// Bytes of changes after which a root store takes a snapshot; `0` takes none by size.
  public var bytes: Int
  /// Whether stores take snapshots at all (initial ones included).
  public var isEnabled: Bool

  public init(actions: Int = SnapshotPolicy.defaultActions, bytes: Int = SnapshotPolicy.defaultBytes) {
    self.actions = max(0, actions)
    self.bytes = max(0, bytes)
    isEnabled = true
  }

  /// 1,000 actions.
  public static let defaultActions = 1_000
  /// 1 MiB of changes.
  public static let defaultBytes = 1 << 20

  public static let `default` = SnapshotPolicy()

  /// No snapshots: readers can then rebuild a state only from what changes wrote (approximate).
  public static var off: SnapshotPolicy {
    var policy = SnapshotPolicy(actions: 0, bytes: 0)
    policy.isEnabled = false
    return policy
  }

  /// `LOUPE_SNAPSHOT_ACTIONS` or `LOUPE_SNAPSHOT_BYTES`: a whole number from 0 (that trigger
  /// off) to 1,000,000,000; `nil` when invalid.
  public static func count(fromEnvironment value: String) -> Int? {
    let trimmed = value.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
    guard let count = Int(trimmed), (0...1_000_000_000).contains(count) else { return nil }
    return count
  }
}
